import { DocumentPage } from '@/components/documents/document-page';
import { config } from '@/lib/config';
import { useElection } from '@/lib/election';

export function DataCollection() {
  const { texts } = useElection();
  return (
    <DocumentPage title="Data collection">
      <p>
        {texts.organisation || 'The organisation'} runs its elections on {config.appName}. To let you vote exactly once and to keep the
        election verifiable, we collect the following about you.
      </p>
      <h2>What we collect</h2>
      <ul>
        <li>Your member number, name, email address, phone number and branch, from the membership register.</li>
        <li>If you sign in with Google: your Google account email, name and profile photo.</li>
        <li>Sign-in records: when you signed in, from which IP address, and whether it succeeded.</li>
        <li>Which positions you have voted for (not whom you chose), so you cannot vote twice for a position.</li>
        <li>Issue reports you send, with any pictures you attach.</li>
      </ul>
      <h2>What we do not collect</h2>
      <p>
        Your choices are stored without your identity. The ballot records hold no member id and no exact time, so nobody can tell from them
        whom you voted for. Only you can see your own receipt codes.
      </p>
      <h2>Why</h2>
      <p>To confirm you are an eligible member, to send you one-time sign-in codes, to count the votes and to answer your questions.</p>
      {texts.supportEmail && (
        <>
          <h2>Questions</h2>
          <p>
            Write to <a href={`mailto:${texts.supportEmail}`}>{texts.supportEmail}</a>.
          </p>
        </>
      )}
    </DocumentPage>
  );
}
