import { createPublicKey, verify } from 'node:crypto';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { contract, type Signature } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { declarationText, generateSigningKey } from '@/lib/signing';
import { setLocale } from '@/i18n';
import { RegisterSigningKey, SignedDeclaration } from './signed-declaration';

const DIGEST = 'c0'.repeat(32);
const signature = (over: Partial<Signature> = {}): Signature => ({
  election_id: 4,
  name: 'Amina Returning',
  role: 'admin',
  fingerprint: '0123456789abcdef',
  kind: 'certify',
  statement: 'I certify this result.',
  signature: `${'A'.repeat(86)}==`,
  signed_at: '2026-05-03T18:00:00.000Z',
  ...over,
});
const spki = (raw: string) =>
  createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(raw, 'base64')]),
    format: 'der',
    type: 'spki',
  });

function signIn(type: 'admin' | 'agent' | 'member') {
  window.localStorage.setItem('token', 'a-token');
  window.localStorage.setItem('hash', 'a-hash');
  window.localStorage.setItem('account_type', type);
}

const routes = (signatures: Signature[], extra: ReturnType<typeof stub>[] = []) =>
  stubRoutes(
    ...extra,
    stub(contract.api.evidence.getEvidenceDigest, {
      status: 200,
      body: { data: { digest: DIGEST, files: { 'results.json': 'ab'.repeat(32) } } },
    }),
    stub(contract.api.evidence.listSignatures, { status: 200, body: { data: signatures } }),
  );

afterEach(() => {
  vi.unstubAllGlobals();
  setLocale('en');
});

describe('the signed declaration (docs/screens.md "Declaration")', () => {
  it('shows the PDF link, the digest and each signature with name, role, fingerprint and statement; no staff actions for the public', async () => {
    routes([
      signature(),
      signature({ name: 'Otieno Agent', role: 'agent', kind: 'dispute', fingerprint: 'fedcba9876543210', statement: 'The Mombasa count.' }),
    ]);
    await renderWithProviders(<SignedDeclaration electionId={4} />);
    expect((await screen.findByTestId('evidence-digest')).textContent).toMatch(DIGEST);
    const pdf = screen.getByRole('link', { name: 'Download the declaration (PDF)' });
    expect(pdf.getAttribute('href')).toBe('/api/v1/psk/results/declaration.pdf?election_id=4&lang=en');
    const items = await screen.findAllByTestId('signature');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toMatch(/Amina Returning \(admin\) certified the result/);
    expect(items[0]!.textContent).toMatch('Key fingerprint: 0123456789abcdef');
    expect(items[0]!.textContent).toMatch('I certify this result.');
    expect(items[1]!.textContent).toMatch(/Otieno Agent \(agent\) disputed the result/);
    expect(items[1]!.textContent).toMatch('fedcba9876543210');
    expect(screen.queryByRole('button', { name: 'Download the evidence pack' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign' })).toBeNull();
  });

  it('says so when nobody has signed, and speaks Kiswahili', async () => {
    setLocale('sw');
    routes([]);
    await renderWithProviders(<SignedDeclaration electionId={4} />);
    expect(await screen.findByText('Bado hakuna aliyetia sahihi tangazo.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Pakua tangazo (PDF)' }).getAttribute('href')).toContain('lang=sw');
  });

  it('staff sign in the browser: the key file is read here, the exact text is signed, only the signature is sent', async () => {
    signIn('agent');
    const key = await generateSigningKey();
    const calls = routes(
      [],
      [
        stub(contract.api.evidence.postSignature, (call) => ({
          status: 201,
          body: { data: signature({ ...(call.body as object), name: 'Agnes', role: 'agent', fingerprint: key.fingerprint }) },
        })),
      ],
    );
    const user = userEvent.setup();
    await renderWithProviders(<SignedDeclaration electionId={4} />);
    expect(await screen.findByRole('button', { name: 'Download the evidence pack' })).toBeTruthy();
    await screen.findByTestId('evidence-digest');
    // Without a key file the form says what is missing and sends nothing.
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    expect((await screen.findByRole('alert')).textContent).toMatch('Choose your signing key file.');
    await user.upload(screen.getByLabelText('Your signing key file'), new File([key.pem], 'key.pem', { type: 'text/plain' }));
    await user.click(screen.getByLabelText('I dispute the result'));
    await user.type(screen.getByLabelText('Statement'), 'The Mombasa count was not observed.');
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toMatch('Dispute the result?');
    await user.click(within(dialog).getByRole('button', { name: 'Sign' }));
    await waitFor(() => expect(callsTo(calls, contract.api.evidence.postSignature)).toHaveLength(1));
    const sent = callsTo(calls, contract.api.evidence.postSignature)[0]!;
    expect(sent.path).toBe('/elections/4/signatures');
    const body = sent.body as { kind: string; statement: string; signature: string };
    expect(Object.keys(body).sort()).toEqual(['kind', 'signature', 'statement']);
    expect(body).toMatchObject({ kind: 'dispute', statement: 'The Mombasa count was not observed.' });
    const text = declarationText(4, DIGEST, 'dispute', 'The Mombasa count was not observed.');
    expect(verify(null, Buffer.from(text), spki(key.publicKey), Buffer.from(body.signature, 'base64'))).toBe(true);
    // No call carries the private key.
    const privateBody = key.pem.split('\n')[1]!;
    for (const c of calls) expect(JSON.stringify(c.body ?? '')).not.toContain(privateBody);
    expect(await screen.findByText('Your signature has been recorded.')).toBeTruthy();
  });

  it("shows the server's refusal of a signature (a key registered after the close)", async () => {
    signIn('admin');
    const key = await generateSigningKey();
    routes(
      [],
      [
        stub(contract.api.evidence.postSignature, {
          status: 403,
          body: {
            message: 'Your signing key was registered after the election closed; only a key registered before the close can sign it',
          },
        }),
      ],
    );
    const user = userEvent.setup();
    await renderWithProviders(<SignedDeclaration electionId={4} />);
    await screen.findByTestId('evidence-digest');
    await user.upload(screen.getByLabelText('Your signing key file'), new File([key.pem], 'key.pem'));
    await user.type(screen.getByLabelText('Statement'), 'I certify.');
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Sign' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/registered after the election closed/);
  });

  it('a file that is not a key is refused in the browser, before anything is sent', async () => {
    signIn('admin');
    const calls = routes([]);
    const user = userEvent.setup();
    await renderWithProviders(<SignedDeclaration electionId={4} />);
    await screen.findByTestId('evidence-digest');
    await user.upload(screen.getByLabelText('Your signing key file'), new File(['not a key'], 'key.pem'));
    await user.type(screen.getByLabelText('Statement'), 'I certify.');
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Sign' }));
    expect((await screen.findByRole('alert')).textContent).toMatch('That file is not an Ed25519 signing key.');
    expect(callsTo(calls, contract.api.evidence.postSignature)).toHaveLength(0);
  });
});

describe('Register my signing key', () => {
  it('makes the key here, saves the private key as a file and sends only the public key', async () => {
    signIn('agent');
    const saved: Blob[] = [];
    // The saved file, caught where the page hands it to the browser (jsdom has no object URLs).
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = (b: Blob) => (saved.push(b as Blob), 'blob:key');
    URL.revokeObjectURL = () => undefined;
    onTestFinished(() => {
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
    });
    const calls = stubRoutes(
      stub(contract.api.evidence.putSigningKey, (call) => ({
        status: 200 as const,
        body: {
          data: {
            fingerprint: 'feedfacecafebeef',
            public_key: (call.body as { public_key: string }).public_key,
            name: 'Agnes',
            role: 'agent' as const,
            registered_at: '2026-05-03T08:00:00.000Z',
          },
        },
      })),
    );
    const user = userEvent.setup();
    await renderWithProviders(<RegisterSigningKey />);
    await user.click(screen.getByRole('button', { name: 'Register my signing key' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Register my signing key' }));
    expect((await screen.findByTestId('registered-key')).textContent).toMatch(
      /Key feedfacecafebeef registered\. Keep the file kura-signing-key-[0-9a-f]{16}\.pem/,
    );
    const put = callsTo(calls, contract.api.evidence.putSigningKey);
    expect(put).toHaveLength(1);
    expect(Object.keys(put[0]!.body as object)).toEqual(['public_key']);
    expect(saved).toHaveLength(1);
    const pem = await saved[0]!.text();
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(JSON.stringify(put[0]!.body)).not.toContain(pem.split('\n')[1]);
  });
});
