import { createFileRoute } from '@tanstack/react-router';
import { StaffLogin } from '@/components/staff/staff-login';

export const Route = createFileRoute('/admin/login')({
  component: AdminLogin,
});

function AdminLogin() {
  return <StaffLogin role="admin" />;
}
