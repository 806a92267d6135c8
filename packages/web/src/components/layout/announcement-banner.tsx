import { useEffect } from 'react';
import { Link } from '@tanstack/react-router';
import useEmblaCarousel from 'embla-carousel-react';
import Autoplay from 'embla-carousel-autoplay';
import { config } from '@/lib/config';
import { cn } from '@/lib/utils';

/** The banner moves on every 4000 ms and loops (docs/screens.md "Messages and timings"). */
export const BANNER_DELAY_MS = 4000;

/** The four messages, in order (docs/screens.md "Messages and timings"); the third is a link to /verify. */
export function bannerMessages(cfg = config) {
  return [
    { id: 'title', text: cfg.electionTitle },
    { id: 'start', text: `Elections starts on ${cfg.electionStart}` },
    { id: 'verify', text: 'Click here to Verify your member details prior to voting date', to: '/verify' as const },
    { id: 'secure', text: 'Secure and verifiable voting' },
  ];
}

export function AnnouncementBanner({ className, onSlide }: { className?: string; onSlide?: (index: number) => void }) {
  const [emblaRef, emblaApi] = useEmblaCarousel({ loop: true }, [
    Autoplay({ delay: BANNER_DELAY_MS, stopOnInteraction: false, stopOnMouseEnter: true }),
  ]);

  useEffect(() => {
    if (!emblaApi || !onSlide) return;
    const report = () => onSlide(emblaApi.selectedScrollSnap());
    emblaApi.on('select', report);
    return () => {
      emblaApi.off('select', report);
    };
  }, [emblaApi, onSlide]);

  const messages = bannerMessages();
  return (
    <section
      aria-roledescription="carousel"
      aria-label="Announcements"
      className={cn('overflow-hidden bg-primary text-primary-foreground', className)}
    >
      <div ref={emblaRef} className="overflow-hidden">
        <div className="flex">
          {messages.map((m, i) => (
            <div
              key={m.id}
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${messages.length}`}
              className="min-w-0 shrink-0 grow-0 basis-full px-4 py-3 text-center text-sm font-medium sm:text-base"
            >
              {m.to ? (
                <Link to={m.to} className="underline underline-offset-4 hover:opacity-90 focus-visible:outline-2 focus-visible:outline-white">
                  {m.text}
                </Link>
              ) : (
                m.text
              )}
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}
