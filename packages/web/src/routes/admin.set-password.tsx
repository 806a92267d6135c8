import { createFileRoute } from '@tanstack/react-router';
import { SetPasswordPage } from '@/components/staff/set-password-page';

export const Route = createFileRoute('/admin/set-password')({
  component: SetPasswordPage,
});
