import type * as React from 'react';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport, useHeaderBottom } from './toast';
import { useToast } from '@/hooks/use-toast';
import { useT } from '@/i18n';

/** docs/screens.md "Messages and timings": auto close after 5000 ms, swipe threshold 50, hotkey F8 (Radix's own defaults, stated here). */
export const TOAST_DURATION = 5000;
export const TOAST_SWIPE_THRESHOLD = 50;

export function Toaster() {
  const { toasts } = useToast();
  // Toasts carry the web's words (from the catalogue, `t`) and the server's (already in the reader's language);
  // a contract message carried by its code is said in the active language.
  const { t, tReceived } = useT();
  const known = (v: React.ReactNode) => (typeof v === 'string' ? tReceived(v) : v);
  // Below the header, whatever its height: a toast never covers the header's controls.
  const headerBottom = useHeaderBottom(toasts.length > 0);
  return (
    <ToastProvider duration={TOAST_DURATION} swipeThreshold={TOAST_SWIPE_THRESHOLD} swipeDirection="right" label={t('toast.label')}>
      {toasts.map(({ id, title, description, action, ...props }) => (
        <Toast key={id} {...props}>
          <div className="grid gap-1">
            {title && <ToastTitle>{known(title)}</ToastTitle>}
            {description && <ToastDescription>{known(description)}</ToastDescription>}
          </div>
          {action}
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport hotkey={['F8']} label={t('toast.region', { hotkey: 'F8' })} headerBottom={headerBottom} />
    </ToastProvider>
  );
}
