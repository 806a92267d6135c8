import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { DataTable, Td } from './data-table';

const table = (busy: boolean) => (
  <DataTable caption="Receipts" headers={['Receipt', 'Time']} busy={busy}>
    <tr>
      <Td>ab12</Td>
      <Td>10:00</Td>
    </tr>
  </DataTable>
);

describe('DataTable while it refetches (docs/screens.md "Staff pages")', () => {
  it('says busy with aria-busy and a bar, and keeps its text at full contrast (no dimming)', () => {
    const { container } = render(table(true));
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
    expect(screen.getByTestId('table-busy')).toBeTruthy();
    // the defect this guards: `opacity-60` on the table failed axe's color-contrast on its headers
    for (const el of container.querySelectorAll('*')) expect(el.className.toString()).not.toMatch(/opacity-/);
  });

  it('shows neither the bar nor aria-busy when settled', () => {
    render(table(false));
    expect(screen.getByRole('table').hasAttribute('aria-busy')).toBe(false);
    expect(screen.queryByTestId('table-busy')).toBeNull();
  });
});
