import { createFileRoute } from '@tanstack/react-router';
import { Terms } from '@/components/documents/terms-page';

export const Route = createFileRoute('/terms')({
  component: Terms,
});
