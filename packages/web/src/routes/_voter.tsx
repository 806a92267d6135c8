import { createFileRoute, Outlet } from '@tanstack/react-router';
import { AppShell } from '@/components/layout/app-shell';
import { FullPageLoading } from '@/components/layout/page-states';
import { AreaError } from '@/components/layout/area-error';
import { VOTER_EXTRA_TITLES, VOTER_MENU } from '@/lib/menus';
import { requireVoter } from '@/lib/guards';

export const Route = createFileRoute('/_voter')({
  beforeLoad: ({ context }) => requireVoter(context.queryClient),
  pendingComponent: FullPageLoading,
  // A session check the server could not answer, or any error of the area: its own error state with Retry.
  errorComponent: AreaError,
  component: VoterLayout,
});

function VoterLayout() {
  return (
    <AppShell menu={VOTER_MENU} extraTitles={VOTER_EXTRA_TITLES} showColourDialog showPinDialog showLanguage signOutTo="/">
      <Outlet />
    </AppShell>
  );
}
