import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { formatDateTime } from '@/lib/election';
import { AnnouncementBanner, BANNER_DELAY_MS, bannerMessages } from './announcement-banner';

/**
 * jsdom has no layout, so give every element a 300px-wide box laid out left to right among its
 * siblings: embla then sees a track of four 300px slides in a 300px viewport.
 */
const WIDTH = 300;
function stubLayout() {
  const props = {
    offsetWidth: { get: () => WIDTH },
    offsetHeight: { get: () => 40 },
    offsetTop: { get: () => 0 },
    offsetLeft: {
      get(this: HTMLElement) {
        const parent = this.parentElement;
        return parent ? Array.prototype.indexOf.call(parent.children, this) * WIDTH : 0;
      },
    },
  } as const;
  const saved = Object.fromEntries(Object.keys(props).map((k) => [k, Object.getOwnPropertyDescriptor(HTMLElement.prototype, k)]));
  Object.defineProperties(HTMLElement.prototype, props);
  return () => {
    for (const [k, d] of Object.entries(saved)) if (d) Object.defineProperty(HTMLElement.prototype, k, d);
  };
}

describe('announcement banner (docs/screens.md "Messages and timings")', () => {
  let restore: () => void;
  beforeEach(() => {
    restore = stubLayout();
  });
  afterEach(() => {
    vi.useRealTimers();
    restore();
  });

  const election = { title: 'Coop Elections 2026', opensAt: '2026-05-04T06:00:00.000Z', timeZone: 'Africa/Nairobi' };

  it('holds the four messages in order, the third a link to /verify', async () => {
    await renderWithProviders(<AnnouncementBanner texts={election} />);
    const texts = bannerMessages(election).map((m) => m.text);
    expect(texts).toEqual([
      'Coop Elections 2026',
      `Elections starts on ${formatDateTime(election.opensAt, election.timeZone)}`,
      'Click here to Verify your member details prior to voting date',
      'Secure and verifiable voting',
    ]);
    for (const t of texts) expect(screen.getByText(t)).toBeTruthy();
    const link = screen.getByRole('link', { name: 'Click here to Verify your member details prior to voting date' });
    expect(link.getAttribute('href')).toBe('/verify');
    expect(screen.getAllByRole('group')).toHaveLength(4);
  });

  it('leaves out the title and opening time the admin has not set (an empty install names no organisation)', () => {
    expect(bannerMessages({ title: '', opensAt: null, timeZone: 'UTC' }).map((m) => m.id)).toEqual(['verify', 'secure']);
  });

  it('moves on every 4000 ms and loops back to the first message', async () => {
    expect(BANNER_DELAY_MS).toBe(4000);
    const slides: number[] = [];
    vi.useFakeTimers();
    await renderWithProviders(<AnnouncementBanner texts={election} onSlide={(i) => slides.push(i)} />);
    const before = slides.length;

    await act(async () => {
      vi.advanceTimersByTime(3990);
    });
    expect(slides.length).toBe(before); // nothing before 4 s
    await act(async () => {
      vi.advanceTimersByTime(20);
    });
    expect(slides.slice(before)).toEqual([1]);
    await act(async () => {
      vi.advanceTimersByTime(4000 * 3);
    });
    expect(slides.slice(before)).toEqual([1, 2, 3, 0]);
  });

  it('keeps moving while the pointer is over it', async () => {
    const slides: number[] = [];
    vi.useFakeTimers();
    await renderWithProviders(<AnnouncementBanner texts={election} onSlide={(i) => slides.push(i)} />);
    const before = slides.length;
    const banner = screen.getByRole('region', { name: 'Announcements' });
    fireEvent.mouseEnter(banner.firstElementChild!);
    fireEvent.pointerEnter(banner.firstElementChild!);
    await act(async () => {
      vi.advanceTimersByTime(4010 * 2);
    });
    expect(slides.slice(before)).toEqual([1, 2]);
  });

  it('stands still for prefers-reduced-motion, and Pause/Play stops and starts it', async () => {
    const slides: number[] = [];
    const original = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      ...original(query),
      matches: query.includes('prefers-reduced-motion'),
    })) as typeof window.matchMedia;
    try {
      vi.useFakeTimers();
      await renderWithProviders(<AnnouncementBanner texts={election} onSlide={(i) => slides.push(i)} />);
      await act(async () => {
        vi.advanceTimersByTime(4010 * 3);
      });
      expect(slides).toEqual([]);
      fireEvent.click(screen.getByRole('button', { name: 'Play announcements' }));
      await act(async () => {
        vi.advanceTimersByTime(4010);
      });
      expect(slides).toEqual([1]);
      fireEvent.click(screen.getByRole('button', { name: 'Pause announcements' }));
      await act(async () => {
        vi.advanceTimersByTime(4010 * 2);
      });
      expect(slides).toEqual([1]);
    } finally {
      window.matchMedia = original;
    }
  });
});
