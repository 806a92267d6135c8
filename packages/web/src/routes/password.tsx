import { createFileRoute } from '@tanstack/react-router';
import { PasswordStep } from '@/components/auth/password-page';

export const Route = createFileRoute('/password')({
  component: PasswordStep,
});
