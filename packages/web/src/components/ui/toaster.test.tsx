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

  it('never passes over the header: slides in from the right, and sits below a header of any height', () => {
    const header = document.createElement('header');
    header.getBoundingClientRect = () => ({
      bottom: 117.4,
      top: 0,
      left: 0,
      right: 390,
      width: 390,
      height: 117.4,
      x: 0,
      y: 0,
      toJSON: () => ({}),
    });
    document.body.prepend(header);
    try {
      render(<Toaster />);
      act(() => {
        toast({ variant: 'success', title: 'Secure and Transparent Voting ✅' });
      });
      const item = screen.getByText('Secure and Transparent Voting ✅').closest('li')!;
      // A toast sliding down from above crossed the header's Sign Out for a moment after a sign-in.
      expect(item.className).not.toMatch(/slide-in-from-top/);
      expect(item.className).toContain('slide-in-from-right-full');
      const list = screen.getByRole('region').querySelector('ol')!;
      expect(list.style.top).toBe('118px');
    } finally {
      header.remove();
    }
  });
});
