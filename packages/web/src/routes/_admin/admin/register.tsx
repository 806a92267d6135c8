import { createFileRoute } from '@tanstack/react-router';
import { RegisterPage } from '@/components/admin/register-page';

export const Route = createFileRoute('/_admin/admin/register')({
  component: RegisterPage,
});
