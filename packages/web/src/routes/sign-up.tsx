import { createFileRoute } from '@tanstack/react-router';
import { SignUp } from '@/components/auth/sign-up-page';

export const Route = createFileRoute('/sign-up')({
  component: SignUp,
});
