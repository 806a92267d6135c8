import { createFileRoute } from '@tanstack/react-router';
import { Privacy } from '@/components/documents/privacy-page';

export const Route = createFileRoute('/privacy')({
  component: Privacy,
});
