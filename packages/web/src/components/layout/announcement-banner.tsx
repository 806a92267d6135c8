import { useEffect, useState } from 'react';
import { Pause, Play } from 'lucide-react';
import { Link } from '@tanstack/react-router';
import useEmblaCarousel from 'embla-carousel-react';
import Autoplay from 'embla-carousel-autoplay';
import { formatDateTime, useElection, type ElectionTexts } from '@/lib/election';
import { cn } from '@/lib/utils';
import { t, useT } from '@/i18n';

/** The banner moves on every 4000 ms and loops (docs/screens.md "Messages and timings"). */
export const BANNER_DELAY_MS = 4000;

type BannerMessage = { id: string; text: string; to?: '/verify' };

/**
 * The messages of docs/screens.md "Messages and timings", in order; the verify one is a link to /verify. The election's title and
 * opening time come from the election's settings and are left out while the admin has not set them.
 */
export function bannerMessages(texts: Pick<ElectionTexts, 'title' | 'opensAt' | 'timeZone'>): BannerMessage[] {
  const out: BannerMessage[] = [];
  if (texts.title) out.push({ id: 'title', text: texts.title });
  if (texts.opensAt) out.push({ id: 'start', text: t('banner.startsOn', { date: formatDateTime(texts.opensAt, texts.timeZone) }) });
  out.push({ id: 'verify', text: t('banner.verify'), to: '/verify' });
  out.push({ id: 'secure', text: t('banner.secure') });
  return out;
}

/** Whether the person asked their system for less motion. */
export function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

export function AnnouncementBanner({
  className,
  onSlide,
  texts,
}: {
  className?: string;
  onSlide?: (index: number) => void;
  /** The election's texts; read from GET election when not given. */
  texts?: Pick<ElectionTexts, 'title' | 'opensAt' | 'timeZone'>;
}) {
  // It keeps moving under the pointer (a hover must not freeze it); who asked for less motion
  // gets it still, and everyone gets a Pause/Play button (moving content must be stoppable).
  const [reduced] = useState(prefersReducedMotion);
  const [playing, setPlaying] = useState(!reduced);
  const [emblaRef, emblaApi] = useEmblaCarousel({ loop: true, duration: reduced ? 0 : 25 }, [
    Autoplay({ delay: BANNER_DELAY_MS, stopOnInteraction: false, stopOnMouseEnter: false, stopOnFocusIn: false, playOnInit: !reduced }),
  ]);

  const toggle = () => {
    const autoplay = emblaApi?.plugins().autoplay;
    if (!autoplay) return;
    if (playing) autoplay.stop();
    else autoplay.play();
    setPlaying(!playing);
  };

  useEffect(() => {
    if (!emblaApi || !onSlide) return;
    const report = () => onSlide(emblaApi.selectedScrollSnap());
    emblaApi.on('select', report);
    return () => {
      emblaApi.off('select', report);
    };
  }, [emblaApi, onSlide]);

  useT();
  const election = useElection();
  // An election still being set up is not announced (after an archive, the copy for next year is the current one).
  const announced = election.election?.phase === 'setup' ? { ...election.texts, title: '', opensAt: null } : election.texts;
  const messages = bannerMessages(texts ?? announced);
  return (
    <section
      aria-roledescription="carousel"
      aria-label={t('banner.label')}
      className={cn('relative flex items-center overflow-hidden bg-primary text-primary-foreground', className)}
    >
      <div ref={emblaRef} className="min-w-0 flex-1 overflow-hidden">
        <div className="flex">
          {messages.map((m, i) => (
            <div
              key={m.id}
              role="group"
              aria-roledescription="slide"
              aria-label={t('banner.slide', { index: i + 1, count: messages.length })}
              className="min-w-0 shrink-0 grow-0 basis-full px-4 py-3 text-center text-sm font-medium sm:text-base"
            >
              {m.to ? (
                <Link
                  to={m.to}
                  className="underline underline-offset-4 hover:opacity-90 focus-visible:outline-2 focus-visible:outline-white"
                >
                  {m.text}
                </Link>
              ) : (
                m.text
              )}
            </div>
          ))}
        </div>
      </div>
      <button
        type="button"
        onClick={toggle}
        aria-pressed={!playing}
        className="mr-2 inline-flex size-8 shrink-0 items-center justify-center rounded-md hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-white"
      >
        {playing ? <Pause className="size-4" aria-hidden="true" /> : <Play className="size-4" aria-hidden="true" />}
        <span className="sr-only">{playing ? t('banner.pause') : t('banner.play')}</span>
      </button>
    </section>
  );
}
