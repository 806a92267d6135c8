import { createFileRoute, Outlet, retainSearchParams } from '@tanstack/react-router';
import { AppShell } from '@/components/layout/app-shell';
import { FullPageLoading } from '@/components/layout/page-states';
import { requireStaff } from '@/lib/guards';
import { AGENT_MENU } from '@/lib/menus';

export const Route = createFileRoute('/_agent')({
  beforeLoad: ({ context }) => requireStaff(context.queryClient, 'agent'),
  // The chosen election stays as the staff move from page to page (lib/election-search.ts).
  search: { middlewares: [retainSearchParams(['election'])] },
  pendingComponent: FullPageLoading,
  component: AgentLayout,
});

/** docs/screens.md "Screens": the agent shell offers the colour dialog and paints its page-title banner in the custom colours. */
function AgentLayout() {
  return (
    <AppShell menu={AGENT_MENU} showColourDialog bannerUsesCustomColours showLanguage signOutTo="/agent/login">
      <Outlet />
    </AppShell>
  );
}
