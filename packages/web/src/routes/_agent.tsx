import { createFileRoute, Outlet, retainSearchParams } from '@tanstack/react-router';
import { AppShell } from '@/components/layout/app-shell';
import { FullPageLoading } from '@/components/layout/page-states';
import { AreaError } from '@/components/layout/area-error';
import { requireStaff } from '@/lib/guards';
import { useStaffChanges } from '@/lib/staff-changes';
import { AGENT_MENU } from '@/lib/menus';

export const Route = createFileRoute('/_agent')({
  beforeLoad: ({ context }) => requireStaff(context.queryClient, 'agent'),
  // The chosen election stays as the staff move from page to page (lib/election-search.ts).
  search: { middlewares: [retainSearchParams(['election'])] },
  pendingComponent: FullPageLoading,
  // A session check the server could not answer, or any error of the area: its own error state with Retry.
  errorComponent: AreaError,
  component: AgentLayout,
});

/** docs/screens.md "Screens": the agent shell offers the colour dialog and paints its page-title banner in the custom colours. */
function AgentLayout() {
  useStaffChanges();
  return (
    <AppShell menu={AGENT_MENU} showColourDialog bannerUsesCustomColours showLanguage signOutTo="/agent/login">
      <Outlet />
    </AppShell>
  );
}
