import { createFileRoute, Outlet, retainSearchParams } from '@tanstack/react-router';
import { AppShell } from '@/components/layout/app-shell';
import { FullPageLoading } from '@/components/layout/page-states';
import { AreaError } from '@/components/layout/area-error';
import { requireStaff } from '@/lib/guards';
import { useStaffChanges } from '@/lib/staff-changes';
import { ADMIN_EXTRA_TITLES, ADMIN_MENU } from '@/lib/menus';

export const Route = createFileRoute('/_admin')({
  beforeLoad: ({ context }) => requireStaff(context.queryClient, 'admin'),
  // The chosen election stays as the staff move from page to page (lib/election-search.ts).
  search: { middlewares: [retainSearchParams(['election'])] },
  pendingComponent: FullPageLoading,
  // A session check the server could not answer, or any error of the area: its own error state with Retry.
  errorComponent: AreaError,
  component: AdminLayout,
});

/** docs/screens.md "Screens": the admin shell has no colour dialog; Sign Out returns to /admin/login. */
function AdminLayout() {
  useStaffChanges();
  return (
    <AppShell menu={ADMIN_MENU} extraTitles={ADMIN_EXTRA_TITLES} showColourDialog={false} showLanguage signOutTo="/admin/login">
      <Outlet />
    </AppShell>
  );
}
