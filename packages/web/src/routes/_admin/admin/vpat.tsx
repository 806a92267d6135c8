import { createFileRoute } from '@tanstack/react-router';
import { VvpatPage } from '@/components/admin/vvpat-page';

export const Route = createFileRoute('/_admin/admin/vpat')({
  component: VvpatPage,
});
