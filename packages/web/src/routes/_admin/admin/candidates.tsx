import { createFileRoute } from '@tanstack/react-router';
import { CandidatesPage } from '@/components/admin/candidates-page';

export const Route = createFileRoute('/_admin/admin/candidates')({
  component: CandidatesPage,
});
