import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { CONTACT_CHANGE_AFTER_VOTE, contract } from '@kura/contract';
import { MemberImport } from './member-import';

afterEach(() => vi.unstubAllGlobals());

const csv = () => new File(['member_no,name,email,phone,branch\n'], 'members.csv', { type: 'text/csv' });

describe('member CSV import (beyond the spec)', () => {
  it('uploads the file as multipart and sums up what was created and updated', async () => {
    const calls = stubRoutes(stub(contract.api.members.importMembers, { status: 200, body: { created: 2, updated: 1, errors: [] } }));
    await renderWithProviders(<MemberImport />, '/admin/members');
    fireEvent.change(screen.getByLabelText('CSV file of members'), { target: { files: [csv()] } });
    expect(await screen.findByText((_, el) => el?.tagName === 'P' && el.textContent === '2 created, 1 updated')).toBeTruthy();
    const body = callsTo(calls, contract.api.members.importMembers)[0]!.body as FormData;
    expect((body.get('file') as File).name).toBe('members.csv');
  });

  it('lists the lines with errors when nothing was imported', async () => {
    stubRoutes(
      stub(contract.api.members.importMembers, {
        status: 200,
        body: {
          created: 0,
          updated: 0,
          errors: [
            { line: 3, message: 'Should only contain digits' },
            { line: 7, message: 'Unknown branch' },
          ],
        },
      }),
    );
    await renderWithProviders(<MemberImport />, '/admin/members');
    fireEvent.change(screen.getByLabelText('CSV file of members'), { target: { files: [csv()] } });
    expect(await screen.findByText('Line 3: Should only contain digits')).toBeTruthy();
    expect(screen.getByText('Line 7: Unknown branch')).toBeTruthy();
    // Named: other live regions (router, toasts) may be on the page too.
    expect(screen.getByRole('status', { name: 'Import result' }).textContent).toContain('2 lines with errors (nothing was imported)');
  });

  it("adds ?create_branches=1 when 'Create branches that don't exist yet' is ticked, and not otherwise", async () => {
    const calls = stubRoutes(stub(contract.api.members.importMembers, { status: 200, body: { created: 1, updated: 0, errors: [] } }));
    await renderWithProviders(<MemberImport />, '/admin/members');
    fireEvent.change(screen.getByLabelText('CSV file of members'), { target: { files: [csv()] } });
    await screen.findByRole('status', { name: 'Import result' });
    expect(callsTo(calls, contract.api.members.importMembers)[0]!.search.get('create_branches')).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: "Create branches that don't exist yet" }));
    fireEvent.change(screen.getByLabelText('CSV file of members'), { target: { files: [csv()] } });
    await waitFor(() => expect(callsTo(calls, contract.api.members.importMembers)).toHaveLength(2));
    expect(callsTo(calls, contract.api.members.importMembers)[1]!.search.get('create_branches')).toBe('1');
  });

  it('offers to confirm contact changes the server refused for members who voted, and sends the same file with the confirmation', async () => {
    const calls = stubRoutes(
      stub(contract.api.members.importMembers, (c) => {
        if ((c.body as FormData).get('confirm_contact_changes') === '1')
          return { status: 200, body: { created: 0, updated: 1, errors: [] } };
        return {
          status: 200,
          body: {
            created: 0,
            updated: 0,
            errors: [{ line: 2, message: `member 1234 ${CONTACT_CHANGE_AFTER_VOTE}`, issue: CONTACT_CHANGE_AFTER_VOTE }],
          },
        };
      }),
    );
    await renderWithProviders(<MemberImport />, '/admin/members');
    fireEvent.change(screen.getByLabelText('CSV file of members'), { target: { files: [csv()] } });
    const confirm = await screen.findByRole('button', { name: 'Confirm the contact changes and import again' });
    const imports = () => callsTo(calls, contract.api.members.importMembers);
    expect((imports()[0]!.body as FormData).get('confirm_contact_changes')).toBeNull();
    fireEvent.click(confirm);
    expect(await screen.findByText((_, el) => el?.tagName === 'P' && el.textContent === '0 created, 1 updated')).toBeTruthy();
    expect(imports()).toHaveLength(2);
    const second = imports()[1]!.body as FormData;
    expect(second.get('confirm_contact_changes')).toBe('1');
    expect((second.get('file') as File).name).toBe('members.csv');
    expect(screen.queryByRole('button', { name: 'Confirm the contact changes and import again' })).toBeNull();
  });

  it('does not offer the confirmation for other line errors', async () => {
    stubRoutes(
      stub(contract.api.members.importMembers, {
        status: 200,
        body: { created: 0, updated: 0, errors: [{ line: 3, message: 'Should only contain digits' }] },
      }),
    );
    await renderWithProviders(<MemberImport />, '/admin/members');
    fireEvent.change(screen.getByLabelText('CSV file of members'), { target: { files: [csv()] } });
    expect(await screen.findByText('Line 3: Should only contain digits')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm the contact changes and import again' })).toBeNull();
  });
});
