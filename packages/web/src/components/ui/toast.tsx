import * as React from 'react';
import * as ToastPrimitives from '@radix-ui/react-toast';
import { cva, type VariantProps } from 'class-variance-authority';
import { X } from 'lucide-react';
import { cn } from '@/lib/utils';
import { t } from '@/i18n';

export const ToastProvider = ToastPrimitives.Provider;

/**
 * docs/screens.md "Messages and timings": toasts sit at the top-right on every screen size, below
 * the page's header so they never cover its controls (the photo, Sign Out, the public links):
 * `top-16` under the staff and voter shells' 4rem header, and `headerBottom` (the header's
 * measured bottom edge, see `useHeaderBottom`) wherever a header is taller or has scrolled.
 */
export function ToastViewport({
  className,
  headerBottom,
  style,
  ...props
}: React.ComponentProps<typeof ToastPrimitives.Viewport> & { headerBottom?: number }) {
  return (
    <ToastPrimitives.Viewport
      className={cn('fixed right-0 top-16 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 sm:max-w-[420px]', className)}
      style={headerBottom === undefined ? style : { ...style, top: headerBottom }}
      {...props}
    />
  );
}

/**
 * The bottom edge of the page's header (its first `<header>`), in viewport pixels, followed on
 * every frame while `active` (a toast is showing): through scrolling, resizing and a change of
 * page under the toast (a sign-in's toast outlives the login page). Undefined without a header.
 */
export function useHeaderBottom(active: boolean): number | undefined {
  const [bottom, setBottom] = React.useState<number | undefined>(undefined);
  React.useLayoutEffect(() => {
    if (!active) return;
    let frame = 0;
    const measure = () => {
      const header = document.querySelector('header');
      const next = header ? Math.max(0, Math.ceil(header.getBoundingClientRect().bottom)) : undefined;
      setBottom((prev) => (prev === next ? prev : next));
      frame = requestAnimationFrame(measure);
    };
    measure();
    return () => cancelAnimationFrame(frame);
  }, [active]);
  return bottom;
}

const toastVariants = cva(
  'group pointer-events-auto relative flex w-full items-center justify-between gap-4 overflow-hidden rounded-md border p-4 pr-8 shadow-lg transition-all data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=move]:transition-none data-[state=open]:animate-in data-[state=closed]:animate-out data-[swipe=end]:animate-out data-[state=closed]:fade-out-80 data-[state=closed]:slide-out-to-right-full data-[state=open]:slide-in-from-right-full',
  {
    variants: {
      variant: {
        default: 'border-border bg-background text-foreground',
        success: 'border-green-300 bg-green-50 text-green-900',
        destructive: 'border-destructive bg-destructive text-destructive-foreground',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

export type ToastVariant = NonNullable<VariantProps<typeof toastVariants>['variant']>;

export function Toast({
  className,
  variant,
  ...props
}: React.ComponentProps<typeof ToastPrimitives.Root> & VariantProps<typeof toastVariants>) {
  return <ToastPrimitives.Root className={cn(toastVariants({ variant }), className)} {...props} />;
}

export function ToastAction({ className, ...props }: React.ComponentProps<typeof ToastPrimitives.Action>) {
  return (
    <ToastPrimitives.Action
      className={cn(
        'inline-flex h-8 shrink-0 items-center justify-center rounded-md border bg-transparent px-3 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        className,
      )}
      {...props}
    />
  );
}

export function ToastClose({ className, ...props }: React.ComponentProps<typeof ToastPrimitives.Close>) {
  return (
    <ToastPrimitives.Close
      className={cn(
        'absolute right-2 top-2 rounded-md p-1 opacity-70 transition-opacity hover:opacity-100 focus:opacity-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        className,
      )}
      aria-label={t('common.close')}
      {...props}
    >
      <X className="size-4" aria-hidden="true" />
    </ToastPrimitives.Close>
  );
}

export function ToastTitle({ className, ...props }: React.ComponentProps<typeof ToastPrimitives.Title>) {
  return <ToastPrimitives.Title className={cn('text-sm font-semibold', className)} {...props} />;
}

export function ToastDescription({ className, ...props }: React.ComponentProps<typeof ToastPrimitives.Description>) {
  return <ToastPrimitives.Description className={cn('text-sm opacity-90', className)} {...props} />;
}

export type ToastProps = React.ComponentProps<typeof Toast>;
export type ToastActionElement = React.ReactElement<typeof ToastAction>;
