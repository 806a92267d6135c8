import { createFileRoute } from '@tanstack/react-router';
import { ResultsPage } from '@/components/results/results-page';

export const Route = createFileRoute('/results')({
  component: ResultsPage,
});
