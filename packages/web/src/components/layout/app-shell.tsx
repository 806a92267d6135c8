import { useEffect, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ChevronDown, LogOut, Menu } from 'lucide-react';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { toast } from '@/hooks/use-toast';
import { ChangePinDialog } from '@/components/auth/change-pin-dialog';
import { ColourDialog } from '@/components/colours/colour-dialog';
import { IssueDialog } from '@/components/help/issue-dialog';
import { config } from '@/lib/config';
import { initial } from '@/lib/format';
import type { MenuItem } from '@/lib/menus';
import { clearSession, getName, getPhoto, takeWelcome } from '@/lib/session';
import { tsr } from '@/lib/api';
import { cn } from '@/lib/utils';
import { t as translate, useT, type MessageKey } from '@/i18n';
import { LanguageSelect } from './language-select';

export type AppShellProps = {
  menu: MenuItem[];
  /** voter and agent shells offer the colour dialog; the admin shell does not */
  showColourDialog: boolean;
  /** where Sign Out goes: / (voter), /admin/login (admin), /agent/login (agent) */
  signOutTo: string;
  /** the agent shell paints its page-title banner in the custom colours */
  bannerUsesCustomColours?: boolean;
  /** subtitles of pages that are not menu items (pathname → catalogue key) */
  extraTitles?: Record<string, MessageKey>;
  /** shows the help button in the page-title banner */
  showHelp?: boolean;
  /** the voter shell offers the Change pin dialog (the authenticator sign-in's pin) */
  showPinDialog?: boolean;
  /** the voter shell offers the language switcher (docs/i18n.md) */
  showLanguage?: boolean;
  children: ReactNode;
};

export const SHELL_WELCOME_TOAST = 'Secure and Transparent Voting ✅';

/** The menu entry of a path: an exact match, else the longest entry that prefixes it. */
export function activeMenuItem(pathname: string, menu: MenuItem[]): MenuItem | undefined {
  const clean = pathname.replace(/\/+$/, '') || '/';
  const exact = menu.find((m) => m.to === clean);
  if (exact) return exact;
  return menu.filter((m) => clean.startsWith(`${m.to}/`)).sort((a, b) => b.to.length - a.to.length)[0];
}

/** Header (logo, photo, Sign Out), 300px side navigation (a dropdown on small screens) and page-title banner. */
export function AppShell({
  menu,
  showColourDialog,
  signOutTo,
  bannerUsesCustomColours,
  extraTitles,
  showHelp = true,
  showPinDialog = false,
  showLanguage = false,
  children,
}: AppShellProps) {
  const { t } = useT();
  const labelOf = (item: MenuItem) => (item.labelKey ? t(item.labelKey) : item.label);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const name = getName();
  const photo = getPhoto();
  const clean = pathname.replace(/\/+$/, '') || '/';
  const active = activeMenuItem(pathname, menu);
  const extra = extraTitles?.[clean];
  const subtitle = extra !== undefined ? t(extra) : active ? (active.titleKey ? t(active.titleKey) : active.title) : '';

  // Once per signed-in tab (docs/screens.md "Shell"), not on every page or reload: a flag in
  // sessionStorage, which sign-out clears (session.ts).
  useEffect(() => {
    if (takeWelcome()) toast({ variant: 'success', title: translate('shell.welcome') });
  }, []);

  const signOut = async () => {
    // Best effort: kill the token on the server; the browser forgets it either way.
    try {
      await tsr.api.auth.logout.mutate({});
    } catch {
      // offline or already expired
    }
    clearSession();
    // Nothing of this person's data may outlive the session in memory either.
    queryClient.clear();
    await navigate({ to: signOutTo as never });
  };

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-4 py-2 font-medium text-foreground ring-2 ring-ring focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      >
        {t('shell.skip')}
      </a>
      <header className="sticky top-0 z-40 flex h-16 items-center justify-between gap-2 border-b border-border bg-background px-3 sm:px-6">
        <Link to="/" className="flex min-w-0 items-center gap-2 font-semibold" aria-label={t('common.homeLink', { app: config.appName })}>
          <img src="/logo.svg" alt="" className="size-9" />
          {/* On a phone the name would be cut to a letter beside the photo and Sign Out: the logo
              stands alone there, the link's label names the app, and the banner below shows it. */}
          <span className="hidden truncate text-lg sm:inline">{config.appName}</span>
        </Link>
        <div className="flex items-center gap-2 sm:gap-3">
          {showLanguage && <LanguageSelect compact />}
          {/* The photo (or initial) is decoration: the name beside it says who is signed in. */}
          <Avatar title={name} aria-hidden="true">
            {photo && <AvatarImage src={photo} alt="" />}
            <AvatarFallback>{initial(name)}</AvatarFallback>
          </Avatar>
          <span className="sr-only max-w-[12rem] truncate text-sm md:not-sr-only md:inline">
            <span className="sr-only">{t('shell.signedInAs')}</span>
            {name}
          </span>
          <Button variant="outline" size="sm" onClick={signOut}>
            <LogOut aria-hidden="true" />
            {t('shell.signOut')}
          </Button>
        </div>
      </header>

      <div className="flex flex-1">
        <nav aria-label={t('shell.mainNav')} className="hidden w-[300px] shrink-0 border-r border-border bg-muted/40 p-4 md:block">
          <ul className="grid gap-1">
            {menu.map((item) => {
              const Icon = item.icon;
              const on = item === active;
              return (
                <li key={item.to}>
                  <Link
                    to={item.to as never}
                    aria-current={on ? 'page' : undefined}
                    className={cn(
                      'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                      on && 'bg-primary text-primary-foreground hover:bg-primary/90',
                    )}
                  >
                    {Icon && <Icon className="size-4" aria-hidden="true" />}
                    {labelOf(item)}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>

        <div className="flex min-w-0 flex-1 flex-col">
          <div className="border-b border-border px-3 py-2 md:hidden">
            {/* Not modal: a modal menu hides the header and banner from assistive technology while their buttons stay focusable. */}
            <DropdownMenu modal={false}>
              <DropdownMenuTrigger asChild>
                {/* The visible text (the page name) is in the accessible name: "Menu: Voting". */}
                <Button variant="outline" className="w-full justify-between">
                  <span className="flex items-center gap-2">
                    <Menu aria-hidden="true" />
                    {active ? (
                      <>
                        <span className="sr-only">{t('shell.menuPrefix')}</span>
                        {labelOf(active)}
                      </>
                    ) : (
                      t('shell.menu')
                    )}
                  </span>
                  <ChevronDown aria-hidden="true" />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="start" className="w-[calc(100vw-1.5rem)]">
                {menu.map((item) => {
                  const Icon = item.icon;
                  return (
                    <DropdownMenuItem key={item.to} asChild>
                      <Link to={item.to as never}>
                        {Icon && <Icon aria-hidden="true" className="size-4" />}
                        {labelOf(item)}
                      </Link>
                    </DropdownMenuItem>
                  );
                })}
              </DropdownMenuContent>
            </DropdownMenu>
          </div>

          <div
            className={cn(
              'flex flex-wrap items-center justify-between gap-3 px-3 py-4 sm:px-6',
              bannerUsesCustomColours ? 'custom-colours' : 'bg-secondary text-secondary-foreground',
            )}
          >
            <div className="min-w-0">
              <p className="text-sm font-medium opacity-80">{config.appName}</p>
              <h1 className="text-xl font-semibold sm:text-2xl">{subtitle}</h1>
            </div>
            {/* outline buttons have a light background: keep their text dark on a custom-coloured banner */}
            <div className={cn('flex flex-wrap gap-2', bannerUsesCustomColours && 'text-foreground')}>
              {showColourDialog && <ColourDialog />}
              {showPinDialog && <ChangePinDialog />}
              {showHelp && <IssueDialog />}
            </div>
          </div>

          <main id="main" tabIndex={-1} className="flex-1 px-3 py-6 focus:outline-none sm:px-6">
            {children}
          </main>
        </div>
      </div>
    </div>
  );
}
