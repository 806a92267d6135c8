import { ElectionSwitcher } from '@/components/staff/election-switcher';
import { useElectionParam } from '@/lib/election-search';
import { BranchesSection } from './setup/branches-section';
import { OrganisationSection } from './setup/organisation-section';
import { PositionsSection } from './setup/positions-section';
import { SetupChecklist } from './setup/setup-checklist';

export { ADD_AGENT_TEXT } from './setup/setup-checklist';

/** docs/api.md "Setting up": the admin sets up an election on one page: the current one, or the one `?election=N` names (the Elections page links each one's). */
export function SetupPage() {
  const election = useElectionParam();
  return (
    <div className="grid gap-6">
      <ElectionSwitcher />
      {/* Another election's forms start afresh from its own data. */}
      <div key={election ?? 'current'} className="grid gap-6">
        <SetupChecklist />
        <OrganisationSection />
        <BranchesSection />
        <PositionsSection />
      </div>
    </div>
  );
}
