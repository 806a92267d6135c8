import { createFileRoute } from '@tanstack/react-router';
import { Nominate } from '@/components/voter/nominate-page';

export const Route = createFileRoute('/_voter/voter/nominate')({
  component: Nominate,
});
