import { createFileRoute } from '@tanstack/react-router';
import { VoterDashboard } from '@/components/voter/dashboard-page';

export const Route = createFileRoute('/_voter/voter/')({
  component: VoterDashboard,
});
