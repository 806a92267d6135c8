import { BranchesSection } from './setup/branches-section';
import { OrganisationForm } from './setup/organisation-form';
import { PositionsSection } from './setup/positions-section';
import { SetupChecklist } from './setup/setup-checklist';

export { ADD_AGENT_TEXT } from './setup/setup-checklist';

/** docs/api.md "Setting up": the admin sets up the organisation's election on one page. */
export function SetupPage() {
  return (
    <div className="grid gap-6">
      <SetupChecklist />
      <OrganisationForm />
      <BranchesSection />
      <PositionsSection />
    </div>
  );
}
