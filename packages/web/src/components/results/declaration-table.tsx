import type { Key, ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** One column of a declaration table: its heading, and whether it holds figures (right-aligned, tabular). */
export type DeclarationColumn = {
  label: ReactNode;
  numeric?: boolean;
  /** Extra classes for this column's body cells. */
  cellClassName?: string;
};

export type DeclarationRow = { key: Key; cells: ReactNode[] };

type DeclarationTableProps = {
  /** The table's name for screen readers; shown above the table only with `showCaption`. */
  caption?: ReactNode;
  showCaption?: boolean;
  columns: DeclarationColumn[];
  rows: DeclarationRow[];
  /** The first cell of each row heads it (a candidate, an option, a round). */
  rowHeader?: boolean;
  className?: string;
};

/**
 * The declaration's one table (results page, motions, ranked rounds, turnout): column headings,
 * one row per entry, figures right-aligned in tabular digits, the same rules and spacing in
 * print (styles.css @media print).
 */
export function DeclarationTable({ caption, showCaption = false, columns, rows, rowHeader = true, className }: DeclarationTableProps) {
  const last = columns.length - 1;
  const cellClass = (i: number) => cn('py-1', i < last && 'pr-2', columns[i]?.numeric && 'text-right');
  return (
    <table className={cn('w-full border-collapse text-left text-sm', className)}>
      {caption != null && <caption className={showCaption ? 'py-1 text-left text-sm font-medium' : 'sr-only'}>{caption}</caption>}
      <thead>
        <tr className="border-b border-border">
          {columns.map((c, i) => (
            <th key={i} scope="col" className={cellClass(i)}>
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} className="border-b border-border/60">
            {row.cells.map((cell, i) => {
              const className = cn(cellClass(i), columns[i]?.numeric && 'tabular-nums', columns[i]?.cellClassName);
              return rowHeader && i === 0 ? (
                <th key={i} scope="row" className={cn(className, 'font-normal')}>
                  {cell}
                </th>
              ) : (
                <td key={i} className={className}>
                  {cell}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
