import { createFileRoute } from '@tanstack/react-router';
import { UssdPage } from '@/components/admin/ussd-page';

export const Route = createFileRoute('/_admin/admin/ussd')({
  component: UssdPage,
});
