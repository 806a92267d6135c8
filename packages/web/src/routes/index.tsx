import { createFileRoute } from '@tanstack/react-router';
import { Landing } from '@/components/public/landing-page';

export const Route = createFileRoute('/')({
  component: Landing,
});
