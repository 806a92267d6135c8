import { createFileRoute } from '@tanstack/react-router';
import { StaffLogin } from '@/components/staff/staff-login';

export const Route = createFileRoute('/agent/login')({
  component: AgentLogin,
});

function AgentLogin() {
  return <StaffLogin role="agent" />;
}
