import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { useZodForm } from '@/components/forms';
import { editPositionSchema, newPositionSchema, PositionKindFields } from './position-form';

/** The add form's fields for a position's kind, alone (no server: it only switches fields). */
function AddKindFields() {
  const form = useZodForm(newPositionSchema, {
    defaultValues: {
      name: '',
      kind: 'candidates',
      seats: 1,
      method: 'plurality',
      threshold: 'majority',
      quorum: '',
      description: '',
      scope: 'national',
      branch: '',
    },
  });
  return <PositionKindFields form={form} chooseKind />;
}

/** The edit form's fields for a motion: the kind is kept, so there is no Kind box. */
function EditMotionFields() {
  const form = useZodForm(editPositionSchema, {
    defaultValues: {
      name: 'Adopt the budget',
      kind: 'motion',
      seats: 1,
      method: 'plurality',
      threshold: 'two_thirds',
      quorum: '25',
      description: '',
    },
  });
  return <PositionKindFields form={form} />;
}

describe('PositionKindFields', () => {
  it('shows method and seats for candidates, and threshold and quorum instead once the kind is a motion', () => {
    render(<AddKindFields />);
    expect(screen.getByLabelText('Voting method')).toBeTruthy();
    expect(screen.getByLabelText('Seats')).toBeTruthy();
    expect(screen.queryByLabelText('Threshold')).toBeNull();
    expect(screen.queryByLabelText('Quorum (%)')).toBeNull();

    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'motion' } });
    expect(screen.getByLabelText('Threshold')).toBeTruthy();
    expect((screen.getByLabelText('Quorum (%)') as HTMLInputElement).type).toBe('number');
    expect(screen.getByText(/the share of members on the roll who must vote on it/)).toBeTruthy();
    expect(screen.queryByLabelText('Voting method')).toBeNull();
    expect(screen.queryByLabelText('Seats')).toBeNull();

    // And back: the candidates fields return.
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'candidates' } });
    expect(screen.getByLabelText('Seats')).toBeTruthy();
    expect(screen.queryByLabelText('Threshold')).toBeNull();
  });

  it('in the edit form keeps the kind: no Kind box, a motion’s own threshold and quorum', () => {
    render(<EditMotionFields />);
    expect(screen.queryByLabelText('Kind')).toBeNull();
    expect((screen.getByLabelText('Threshold') as HTMLSelectElement).value).toBe('two_thirds');
    expect((screen.getByLabelText('Quorum (%)') as HTMLInputElement).value).toBe('25');
    expect(screen.queryByLabelText('Seats')).toBeNull();
    expect(screen.queryByLabelText('Voting method')).toBeNull();
  });
});
