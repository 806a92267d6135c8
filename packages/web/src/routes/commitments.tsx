import { createFileRoute } from '@tanstack/react-router';
import { Commitments } from '@/components/public/commitments-page';

export const Route = createFileRoute('/commitments')({
  component: Commitments,
});
