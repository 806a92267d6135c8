import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

type Props = {
  caption: string;
  headers: ReactNode[];
  children: ReactNode;
  /** below this width the table scrolls sideways inside its frame (phones) */
  minWidth?: string;
  /**
   * A refetch is under way: a thin moving bar along the top edge and `aria-busy`. The rows keep
   * their full contrast (dimming them fails WCAG 1.4.3 for as long as the fetch lasts).
   */
  busy?: boolean;
};

/** A bordered, horizontally scrollable table with a screen-reader caption. */
export function DataTable({ caption, headers, children, minWidth = 'min-w-[40rem]', busy }: Props) {
  return (
    <div className="relative overflow-x-auto rounded-md border border-border" tabIndex={0} role="region" aria-label={caption}>
      {busy && <div data-testid="table-busy" aria-hidden="true" className="absolute inset-x-0 top-0 h-0.5 animate-pulse bg-primary" />}
      <table className={cn('w-full text-left text-sm', minWidth)} aria-busy={busy ? true : undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-muted">
          <tr>
            {headers.map((h, i) => (
              <th key={i} scope="col" className="whitespace-nowrap px-3 py-2 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export function Td({ children, className }: { children?: ReactNode; className?: string }) {
  return <td className={cn('px-3 py-2 align-middle', className)}>{children}</td>;
}

export const rowClass = 'border-t border-border';
