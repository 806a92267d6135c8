/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import { apiClient, screenshot, signInAdminInBrowser, signInOverApi, useE2E } from './harness';

/**
 * The declaration, signed, in Chromium against the real server (docs/screens.md "Declaration"):
 * before the close the admin registers a signing key from the Results page (made in the browser,
 * the private key downloaded as a file); voting opens, a member votes, the election closes; the
 * admin loads the key file back, certifies the result with a statement, and the signature appears
 * with the key's fingerprint, to the admin and to the public, beside the digest and the PDF link.
 */

const e2e = useE2E();

async function voteAs(memberNo: string) {
  const { session, client } = await signInOverApi(e2e.server, { kind: 'voter', memberNo, sink: e2e.sink });
  const token = session.bearer_token;
  const ballot = await client.ok<{ data: { position_id: number; candidates: { id: number }[] }[] }>(
    'GET',
    '/psk/candidates/v2',
    undefined,
    token,
  );
  const candidates = Object.fromEntries(
    ballot.data.filter((g) => g.candidates.length > 0).map((g) => [String(g.position_id), g.candidates[0]!.id]),
  );
  const res = await client.call('POST', '/psk/vote', { candidates }, token);
  if (res.status !== 201) throw new Error(`vote: ${res.status} ${await res.text()}`);
}

describe('the signed declaration', () => {
  it('registers a key before the close, signs after it, and the signature appears', async () => {
    const { context: adminContext, page: admin } = await e2e.newPage(1280, 1000);
    await signInAdminInBrowser(admin, e2e.server);

    // Before the close: the Results page says the result comes at the close, and offers the key.
    await admin.goto('/results');
    await admin.getByText('The result is declared here when the election closes.').waitFor({ timeout: 20_000 });
    await admin.getByRole('button', { name: 'Register my signing key' }).click();
    const confirm = admin.getByRole('alertdialog');
    await expect.poll(() => confirm.textContent()).toMatch(/keep it safe/);
    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      confirm.getByRole('button', { name: 'Register my signing key' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^kura-signing-key-[0-9a-f]{16}\.pem$/);
    const keyPath = await download.path();
    const registered = admin.getByTestId('registered-key');
    await expect.poll(() => registered.textContent(), { timeout: 10_000 }).toMatch(/^Key [0-9a-f]{16} registered/);
    const fingerprint = /^Key ([0-9a-f]{16})/.exec((await registered.textContent())!)![1]!;
    await screenshot(admin, 'signed-declaration-register');

    // Voting opens, a member votes, the election closes (set-up over the API).
    // (The browser's admin session: a second sign-in would wait a minute for its code.)
    const token = (await admin.evaluate(() => window.localStorage.getItem('token')))!;
    const client = apiClient(e2e.server);
    await client.csrf();
    await client.ok('POST', '/toggle', { status: true }, token);
    await voteAs('1003');
    await client.ok('POST', '/election/close', undefined, token);

    // After the close: the declaration, its digest, the PDF link; the admin signs with the key file.
    await admin.goto('/results');
    await admin.getByRole('heading', { name: 'Declaration of results' }).waitFor({ timeout: 20_000 });
    const digest = await admin.getByTestId('evidence-digest').textContent({ timeout: 20_000 });
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(await admin.getByText('No one has signed the declaration yet.').count()).toBe(1);
    await admin.getByLabel('Your signing key file').setInputFiles(keyPath);
    await admin.getByLabel('I certify the result').check();
    await admin.getByLabel('Statement').fill('I certify this result as the returning officer.');
    await admin.getByRole('button', { name: 'Sign', exact: true }).click();
    const dialog = admin.getByRole('alertdialog');
    await expect.poll(() => dialog.textContent()).toMatch(/Certify the result\?/);
    await dialog.getByRole('button', { name: 'Sign', exact: true }).click();
    await admin.getByText('Your signature has been recorded.', { exact: true }).waitFor({ timeout: 10_000 });
    const mine = admin.getByTestId('signature');
    await expect.poll(() => mine.textContent(), { timeout: 10_000 }).toMatch(/certified the result/);
    expect(await mine.textContent()).toContain(fingerprint);
    expect(await mine.textContent()).toContain('I certify this result as the returning officer.');
    await screenshot(admin, 'signed-declaration-signed');

    // The public sees the same signature and the PDF link, and no staff actions.
    const { context: publicContext, page: anyone } = await e2e.newPage(390, 900);
    await anyone.goto('/results');
    const theirs = anyone.getByTestId('signature');
    await expect.poll(() => theirs.textContent(), { timeout: 20_000 }).toContain(fingerprint);
    expect(await anyone.getByTestId('evidence-digest').textContent()).toBe(digest);
    const href = await anyone.getByRole('link', { name: 'Download the declaration (PDF)' }).getAttribute('href');
    const pdf = await fetch(`${e2e.server.baseUrl}${href}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect(await anyone.getByRole('button', { name: 'Sign', exact: true }).count()).toBe(0);
    expect(await anyone.getByRole('button', { name: 'Download the evidence pack' }).count()).toBe(0);
    await screenshot(anyone, 'signed-declaration-public-390');

    await adminContext.close();
    await publicContext.close();
  });
});
