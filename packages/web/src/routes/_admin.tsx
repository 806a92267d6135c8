import { createFileRoute, Outlet, retainSearchParams } from '@tanstack/react-router';
import { AppShell } from '@/components/layout/app-shell';
import { FullPageLoading } from '@/components/layout/page-states';
import { requireStaff } from '@/lib/guards';
import { ADMIN_EXTRA_TITLES, ADMIN_MENU } from '@/lib/menus';

export const Route = createFileRoute('/_admin')({
  beforeLoad: ({ context }) => requireStaff(context.queryClient, 'admin'),
  // The chosen election stays as the staff move from page to page (lib/election-search.ts).
  search: { middlewares: [retainSearchParams(['election'])] },
  pendingComponent: FullPageLoading,
  component: AdminLayout,
});

/** docs/screens.md "Screens": the admin shell has no colour dialog; Sign Out returns to /admin/login. */
function AdminLayout() {
  return (
    <AppShell menu={ADMIN_MENU} extraTitles={ADMIN_EXTRA_TITLES} showColourDialog={false} showLanguage signOutTo="/admin/login">
      <Outlet />
    </AppShell>
  );
}
