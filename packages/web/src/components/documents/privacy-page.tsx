import { DocumentPage } from '@/components/documents/document-page';
import { config } from '@/lib/config';
import { useElection } from '@/lib/election';

export function Privacy() {
  const { texts } = useElection();
  return (
    <DocumentPage title="Privacy policy">
      <p>
        This policy explains how {texts.organisation || 'the organisation'} handles personal data in the {config.appName} election service.
      </p>
      <h2>Secret ballot</h2>
      <p>
        Your vote is secret. Choices are recorded apart from voter identities; the link between you and your receipt codes is encrypted with
        a key held outside the database.
      </p>
      <h2>Who sees your data</h2>
      <p>
        Election administrators see member details and activity logs to run the election. Agents see only totals and statistics. We do not
        sell or share your data with third parties, apart from the SMS and email providers that deliver your sign-in codes.
      </p>
      <h2>How long we keep it</h2>
      <p>
        Member details are kept as long as you are a member. Sign-in codes expire after five minutes. Activity logs are kept for audit after
        the election.
      </p>
      <h2>Your rights</h2>
      <p>
        You may ask to see or correct the data we hold about you. Use the Verify page to check your registered details, and
        {texts.supportEmail ? (
          <>
            {' '}
            write to <a href={`mailto:${texts.supportEmail}`}>{texts.supportEmail}</a> for anything else.
          </>
        ) : (
          ' ask the organisation for anything else.'
        )}
      </p>
    </DocumentPage>
  );
}
