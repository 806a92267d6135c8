import { createFileRoute } from '@tanstack/react-router';
import { RegisterCheck } from '@/components/voter/register-page';

export const Route = createFileRoute('/_voter/voter/register')({
  component: RegisterCheck,
});
