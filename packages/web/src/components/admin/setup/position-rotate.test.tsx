import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { contract, type Position } from '@kura/contract';
import { renderWithProviders } from '@/test/render';
import { callsTo, stub, stubRoutes } from '@/test/fetch';
import { EditPositionForm, NewPositionForm } from './position-form';

/** The position form's "Rotate the candidates' order for each voter" box (docs/api.md "Rotating the candidates' order"). */
afterEach(() => vi.unstubAllGlobals());

const LABEL = "Rotate the candidates' order for each voter";
const run = (work: () => Promise<unknown>) => work().then(() => true);
const chair: Position = {
  id: 7,
  name: 'Chair',
  level: 'National',
  seats: 1,
  description: null,
  branch_id: null,
  kind: 'candidates',
  method: 'ranked',
  threshold: null,
  quorum_percent: null,
  rotate_candidates: true,
};

describe('rotating a ranked position’s candidates', () => {
  it('shows the box for a ranked position only, and the add form sends rotate_candidates when ticked', async () => {
    const calls = stubRoutes(
      stub(contract.api.setup.createPosition, ({ body }) => ({ status: 201, body: { data: [{ ...chair, ...(body as object), id: 8 }] } })),
      stub(contract.api.members.listBranches, { status: 200, body: { data: { data: [] } } }),
    );
    await renderWithProviders(<NewPositionForm run={run} />);
    expect(screen.queryByLabelText(LABEL)).toBeNull();
    fireEvent.change(screen.getByLabelText('Voting method'), { target: { value: 'approval' } });
    expect(screen.queryByLabelText(LABEL)).toBeNull();
    fireEvent.change(screen.getByLabelText('Voting method'), { target: { value: 'ranked' } });
    const box = screen.getByLabelText(LABEL) as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    fireEvent.change(screen.getByLabelText('New position name'), { target: { value: 'Chair' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add position' }));
    await waitFor(() => expect(callsTo(calls, contract.api.setup.createPosition).length > 0).toBe(true));
    expect(callsTo(calls, contract.api.setup.createPosition)[0]!.body).toEqual({
      name: 'Chair',
      kind: 'candidates',
      seats: 1,
      method: 'ranked',
      rotate_candidates: true,
      description: null,
      branch_id: null,
    });
  });

  it('a ticked box left behind by another method is not sent', async () => {
    const calls = stubRoutes(
      stub(contract.api.setup.createPosition, ({ body }) => ({ status: 201, body: { data: [{ ...chair, ...(body as object), id: 9 }] } })),
    );
    await renderWithProviders(<NewPositionForm run={run} />);
    fireEvent.change(screen.getByLabelText('Voting method'), { target: { value: 'ranked' } });
    fireEvent.click(screen.getByLabelText(LABEL));
    fireEvent.change(screen.getByLabelText('Voting method'), { target: { value: 'plurality' } });
    fireEvent.change(screen.getByLabelText('New position name'), { target: { value: 'Treasurer' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add position' }));
    await waitFor(() => expect(callsTo(calls, contract.api.setup.createPosition).length > 0).toBe(true));
    expect(callsTo(calls, contract.api.setup.createPosition)[0]!.body).not.toHaveProperty('rotate_candidates');
  });

  it('the edit form starts from the position’s setting and sends it turned off', async () => {
    const calls = stubRoutes(
      stub(contract.api.setup.updatePosition, ({ body }) => ({ status: 200, body: { data: { ...chair, ...(body as object) } } }), {
        id: 7,
      }),
    );
    await renderWithProviders(<EditPositionForm position={chair} run={run} onDone={() => undefined} />);
    const box = screen.getByLabelText(LABEL) as HTMLInputElement;
    expect(box.checked).toBe(true);
    fireEvent.click(box);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(calls, contract.api.setup.updatePosition, { id: 7 }).length > 0).toBe(true));
    expect(callsTo(calls, contract.api.setup.updatePosition, { id: 7 })[0]!.body).toMatchObject({
      method: 'ranked',
      rotate_candidates: false,
    });
  });
});
