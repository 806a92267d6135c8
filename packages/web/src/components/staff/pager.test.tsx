import { describe, expect, it } from 'vitest';
import { useState } from 'react';
import { fireEvent, render, renderHook, screen } from '@testing-library/react';
import { useLastPage } from '@/hooks/use-last-page';
import { clampPage } from '@/lib/pages';
import { Pager } from './pager';

function Harness({ last, start = 1 }: { last: number; start?: number }) {
  const [page, setPage] = useState(start);
  return <Pager page={page} lastPage={last} onPageChange={setPage} />;
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('pager (docs/screens.md "Staff pages": bounded by 1 and the last page)', () => {
  it('clamps any page into 1..last', () => {
    expect(clampPage(0, 5)).toBe(1);
    expect(clampPage(-3, 5)).toBe(1);
    expect(clampPage(9, 5)).toBe(5);
    expect(clampPage(3, 5)).toBe(3);
    expect(clampPage(1, 0)).toBe(1);
    expect(clampPage(Number.NaN, 4)).toBe(1);
  });

  it('reads First, Back, Page X of Y, Next, Last and cannot go below 1', () => {
    render(<Harness last={3} />);
    const nav = screen.getByRole('navigation', { name: 'Pagination' });
    expect(nav.textContent).toMatch(/First.*Back.*Page 1 of 3.*Next.*Last/);
    expect(button('First').disabled).toBe(true);
    expect(button('Back').disabled).toBe(true);
    expect(button('Next').disabled).toBe(false);
  });

  it('steps forward and stops at the last page', () => {
    render(<Harness last={3} />);
    fireEvent.click(button('Next'));
    expect(screen.getByText('Page 2 of 3')).toBeTruthy();
    expect(button('Back').disabled).toBe(false);
    fireEvent.click(button('Next'));
    expect(screen.getByText('Page 3 of 3')).toBeTruthy();
    expect(button('Next').disabled).toBe(true);
    expect(button('Last').disabled).toBe(true);
    fireEvent.click(button('Next'));
    expect(screen.getByText('Page 3 of 3')).toBeTruthy();
  });

  it('jumps with Last and First, and Back steps one page', () => {
    render(<Harness last={7} />);
    fireEvent.click(button('Last'));
    expect(screen.getByText('Page 7 of 7')).toBeTruthy();
    fireEvent.click(button('Back'));
    expect(screen.getByText('Page 6 of 7')).toBeTruthy();
    fireEvent.click(button('First'));
    expect(screen.getByText('Page 1 of 7')).toBeTruthy();
  });

  it('shows a page past the end as the last page, and an empty list as page 1 of 1', () => {
    const { unmount } = render(<Harness last={2} start={5} />);
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
    unmount();
    render(<Harness last={0} />);
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();
    for (const name of ['First', 'Back', 'Next', 'Last']) expect(button(name).disabled).toBe(true);
  });
});

describe('useLastPage (the pager follows the body on screen)', () => {
  // Every render's answer, not only the settled one: a value set in an effect would show up as
  // one render that still returns the previous last page.
  function track(start: { page: number; reported: number | undefined }) {
    const seen: number[] = [];
    const pages: number[] = [];
    const hook = renderHook(
      ({ page, reported }) => {
        const last = useLastPage(page, (p) => pages.push(p), reported);
        seen.push(last);
        return last;
      },
      { initialProps: start },
    );
    return { ...hook, seen, pages };
  }

  it('returns the reported last page in the very render that brings it', () => {
    const { rerender, seen } = track({ page: 1, reported: undefined });
    expect(seen).toEqual([1]);
    seen.length = 0;
    rerender({ page: 1, reported: 4 });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((last) => last === 4)).toBe(true);
  });

  it('keeps the last reported page while no body is on screen (a failed page)', () => {
    const { rerender, result, pages } = track({ page: 3, reported: 4 });
    rerender({ page: 3, reported: undefined });
    expect(result.current).toBe(4);
    expect(pages).toEqual([]);
  });

  it('steps back to the new last page when the list shrinks below the current page', () => {
    const { rerender, result, pages } = track({ page: 4, reported: 4 });
    rerender({ page: 4, reported: 2 });
    expect(result.current).toBe(2);
    expect(pages).toEqual([2]);
  });

  it('treats an empty list (last page 0) as one page', () => {
    const { result, pages } = track({ page: 1, reported: 0 });
    expect(result.current).toBe(1);
    expect(pages).toEqual([]);
  });
});
