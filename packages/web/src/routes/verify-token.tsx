import { createFileRoute } from '@tanstack/react-router';
import { VerifyTokenLogin } from '@/components/auth/verify-token-page';

export const Route = createFileRoute('/verify-token')({
  component: VerifyTokenLogin,
});
