import { createFileRoute } from '@tanstack/react-router';
import { Education } from '@/components/voter/education-page';

export const Route = createFileRoute('/_voter/voter/education')({
  component: Education,
});
