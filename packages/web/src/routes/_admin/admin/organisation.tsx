import { createFileRoute } from '@tanstack/react-router';
import { OrganisationPage } from '@/components/admin/elections/organisation-page';

export const Route = createFileRoute('/_admin/admin/organisation')({
  component: OrganisationPage,
});
