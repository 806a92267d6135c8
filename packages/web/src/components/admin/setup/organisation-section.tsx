import { useElection } from '@/lib/election';
import { useElectionParam } from '@/lib/election-search';
import { useUpdateElection } from '@/lib/mutations';
import { toast } from '@/hooks/use-toast';
import { useT } from '@/i18n';
import { OrganisationForm } from '../organisation-form';

/**
 * Set-up's Organisation section: the election's title and the organisation's texts in the shared
 * organisation form, read from and sent with the election (GET and PUT election, `?election_id=N`
 * for the chosen election).
 */
export function OrganisationSection() {
  const { t } = useT();
  const chosen = useElectionParam();
  const { election } = useElection(chosen);
  const update = useUpdateElection(t('admin.org.saveError'), chosen);
  return (
    <OrganisationForm
      fields="election"
      heading={t('admin.org.heading')}
      submitLabel={t('admin.org.save')}
      stored={
        election && {
          title: election.title,
          name: election.organisation,
          website: election.website ?? '',
          support_email: election.support_email ?? '',
        }
      }
      pending={update.isPending}
      onSave={async ({ title, name, website, support_email }) => {
        await update.mutateAsync({ body: { title, organisation: name, website, support_email } });
        toast({ variant: 'success', title: t('admin.org.saved') });
      }}
    />
  );
}
