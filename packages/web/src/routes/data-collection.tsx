import { createFileRoute } from '@tanstack/react-router';
import { DataCollection } from '@/components/documents/data-collection-page';

export const Route = createFileRoute('/data-collection')({
  component: DataCollection,
});
