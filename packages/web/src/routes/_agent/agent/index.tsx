import { createFileRoute } from '@tanstack/react-router';
import { AgentDashboard } from '@/components/agent/agent-dashboard';

export const Route = createFileRoute('/_agent/agent/')({
  component: AgentDashboard,
});
