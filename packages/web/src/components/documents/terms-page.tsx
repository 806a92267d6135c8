import { DocumentPage } from '@/components/documents/document-page';
import { config } from '@/lib/config';
import { useElection } from '@/lib/election';

export function Terms() {
  const { texts } = useElection();
  const org = texts.organisation || 'the organisation';
  return (
    <DocumentPage title="Terms and conditions">
      <p>
        By using {config.appName} you agree to these terms, set by {org}.
      </p>
      <h2>Eligibility</h2>
      <p>Only members in the register may vote. You may vote once for each position you are eligible for, while voting is open.</p>
      <h2>Your account</h2>
      <p>Keep your sign-in codes, pin and authenticator to yourself. Never share a code sent to you; {org} will never ask for one.</p>
      <h2>Fair use</h2>
      <p>Do not try to vote for someone else, to guess codes or to disrupt the service. Attempts are logged and may be reported.</p>
      <h2>Results</h2>
      <p>Results shown while voting is open are provisional. The final result is the one declared by the election officials.</p>
      {texts.supportEmail && (
        <>
          <h2>Contact</h2>
          <p>
            Questions: <a href={`mailto:${texts.supportEmail}`}>{texts.supportEmail}</a>.
          </p>
        </>
      )}
    </DocumentPage>
  );
}
