import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { Toaster, TOAST_DURATION, TOAST_SWIPE_THRESHOLD } from './toaster';
import { toast, TOAST_LIMIT, TOAST_REMOVE_DELAY } from '@/hooks/use-toast';

describe('toasts (docs/screens.md "Messages and timings")', () => {
  it('uses the spec constants', () => {
    expect(TOAST_LIMIT).toBe(1);
    expect(TOAST_REMOVE_DELAY).toBe(1_000_000);
    expect(TOAST_DURATION).toBe(5000);
    expect(TOAST_SWIPE_THRESHOLD).toBe(50);
  });

  it('shows one toast at a time, title first then the detail, in a top-right F8 region', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'First', description: 'one' });
    });
    expect(screen.getByText('First')).toBeTruthy();
    act(() => {
      toast({ variant: 'destructive', title: 'Unable to process vote,', description: 'Voting is disabled' });
    });
    expect(screen.queryByText('First')).toBeNull();
    expect(screen.getByText('Unable to process vote,')).toBeTruthy();
    expect(screen.getByText('Voting is disabled')).toBeTruthy();
    const region = screen.getByRole('region');
    expect(region.getAttribute('aria-label')).toContain('F8');
    const list = region.querySelector('ol');
    // Top-right, but below the 4rem header: never over the photo and Sign Out (checked in the browser by e2e/a11y.e2e.ts).
    expect(list?.className).toContain('top-16');
    expect(list?.className).toContain('right-0');
  });
});
