import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { ExternalLink } from 'lucide-react';
import { ColourDialog } from '@/components/colours/colour-dialog';
import { buttonVariants } from '@/components/ui/button';
import { config } from '@/lib/config';
import { useElection } from '@/lib/election';
import { cn } from '@/lib/utils';
import { useT } from '@/i18n';
import { AnnouncementBanner } from './announcement-banner';
import { LanguageSelect } from './language-select';
import { VotingCountdown } from './voting-countdown';

/** The frame of the public screens: header with the logo and links, then the announcement banner. */
export function PublicLayout({
  children,
  showColourDialog = false,
  wide = false,
}: {
  children: ReactNode;
  showColourDialog?: boolean;
  wide?: boolean;
}) {
  const { t } = useT();
  const { texts } = useElection();
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-border bg-background">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-3 py-3 sm:px-6">
          <Link to="/" className="flex items-center gap-2 font-semibold" aria-label={t('common.homeLink', { app: config.appName })}>
            <img src="/logo.svg" alt="" className="size-9" />
            <span className="text-lg">{config.appName}</span>
          </Link>
          <nav aria-label={t('public.nav.label')} className="flex flex-wrap items-center gap-1 sm:gap-2">
            <LanguageSelect compact />
            {showColourDialog && <ColourDialog />}
            {texts.organisation && texts.website && (
              <a href={texts.website} target="_blank" rel="noreferrer" className={cn(buttonVariants({ variant: 'ghost', size: 'sm' }))}>
                {texts.organisation}
                <ExternalLink aria-hidden="true" />
                <span className="sr-only">{t('common.opensNewTab')}</span>
              </a>
            )}
            <Link to="/verify" className={cn(buttonVariants({ variant: 'outline', size: 'sm' }))}>
              {t('public.nav.verify')}
            </Link>
            <Link to="/sign-in" className={cn(buttonVariants({ size: 'sm' }))}>
              {t('public.nav.logIn')}
            </Link>
          </nav>
        </div>
      </header>
      <AnnouncementBanner />
      <VotingCountdown className="print:hidden" />
      <main id="main" className={cn('mx-auto w-full flex-1 px-3 py-6 sm:px-6 sm:py-10', wide ? 'max-w-6xl' : 'max-w-lg')}>
        {children}
      </main>
      <footer className="border-t border-border px-3 py-4 text-center text-xs text-muted-foreground">
        <nav aria-label={t('public.footer.label')} className="flex flex-wrap justify-center gap-4">
          <Link to="/data-collection" className="underline-offset-4 hover:underline">
            {t('public.footer.dataCollection')}
          </Link>
          <Link to="/privacy" className="underline-offset-4 hover:underline">
            {t('public.footer.privacy')}
          </Link>
          <Link to="/terms" className="underline-offset-4 hover:underline">
            {t('public.footer.terms')}
          </Link>
          <Link to="/receipt" className="underline-offset-4 hover:underline">
            {t('public.footer.receipt')}
          </Link>
          <Link to="/commitments" className="underline-offset-4 hover:underline">
            {t('public.footer.commitments')}
          </Link>
          <Link to="/results" className="underline-offset-4 hover:underline">
            {t('public.footer.results')}
          </Link>
          <Link to="/elections" className="underline-offset-4 hover:underline">
            {t('public.footer.elections')}
          </Link>
        </nav>
        {texts.organisation && <p className="mt-2">{t('public.footer.copyright', { organisation: texts.organisation })}</p>}
      </footer>
    </div>
  );
}
