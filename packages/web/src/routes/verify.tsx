import { createFileRoute } from '@tanstack/react-router';
import { VerifyDetails } from '@/components/auth/verify-page';

export const Route = createFileRoute('/verify')({
  component: VerifyDetails,
});
