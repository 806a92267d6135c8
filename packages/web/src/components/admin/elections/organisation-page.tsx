import { useQuery } from '@tanstack/react-query';
import { ErrorState, Loading } from '@/components/layout/page-states';
import { toast } from '@/hooks/use-toast';
import { useUpdateOrganisation } from '@/lib/mutations';
import { queries } from '@/lib/queries';
import { isShipped, useT } from '@/i18n';
import { AUTOMATIC, OrganisationForm } from '../organisation-form';
import { AttributesSection } from './attributes-section';

/**
 * The admin's Organisation page (docs/api.md "Many elections"): the shared organisation form with
 * the texts every election shows (name, website, support e-mail), the time zone the schedules are
 * read in, the current election (what every page and call without `?election=` shows), from the
 * elections not archived, and the default language (docs/api.md "Languages"); GET and PUT
 * organisation; below it the member attributes (docs/api.md "The register").
 */
export function OrganisationPage() {
  const { t } = useT();
  const organisation = useQuery(queries.organisation());
  const elections = useQuery(queries.elections());
  const update = useUpdateOrganisation();

  if (organisation.isPending) return <Loading label={t('common.loading')} />;
  if (organisation.isError) return <ErrorState>{t('organisation.loadError')}</ErrorState>;

  const data = organisation.data.body.data;
  return (
    <>
      <OrganisationForm
        fields="organisation"
        elections={elections.data?.body.data ?? []}
        heading={t('organisation.heading')}
        submitLabel={t('organisation.save')}
        stored={{
          name: data.name,
          website: data.website ?? '',
          support_email: data.support_email ?? '',
          time_zone: data.time_zone,
          current_election: data.current_election_id === null ? AUTOMATIC : String(data.current_election_id),
          default_language: isShipped(data.default_language) ? data.default_language : 'en',
          member_no_pattern: data.member_no_pattern ?? '',
        }}
        pending={update.isPending}
        onSave={async ({ name, website, support_email, time_zone, current_election, default_language, member_no_pattern }) => {
          await update.mutateAsync({
            body: {
              name,
              website,
              support_email,
              time_zone,
              current_election_id: current_election === AUTOMATIC ? null : Number(current_election),
              default_language,
              // Empty: the default rule (the server stores null).
              member_no_pattern: member_no_pattern ?? '',
            },
          });
          toast({ variant: 'success', title: t('organisation.saved') });
        }}
      />
      <AttributesSection />
    </>
  );
}
