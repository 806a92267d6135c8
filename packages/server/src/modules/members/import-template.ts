import type { MembersContext } from './context';
import type { AttributeType } from '@kura/contract';
import { firstBranchNames } from '../../db/member-store';
import { readAttributeDefs } from '../register';

/** A CSV cell: quoted when it holds a comma, a quote or a line break. */
const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/**
 * GET members/import/template (docs/operations.md "Importing members"): the header the import
 * takes, every column, and two example lines in two of the accepted phone spellings, one without
 * an e-mail, naming the organisation's own branches when it has some.
 */
export async function importTemplate(ctx: MembersContext): Promise<string> {
  const names = await firstBranchNames(ctx.database.db, 2);
  const first = names[0] ?? 'Nairobi';
  const second = names[1] ?? first;
  // Every column the import reads (members.test.ts imports the template as it is).
  // The organisation's attribute columns too (docs/api.md "The register"), each with an example value and one left empty.
  const defs = await readAttributeDefs(ctx.database.db);
  const example: Record<AttributeType, string> = { number: '20000', date: '2024-01-31', text: 'North', boolean: 'yes' };
  const header: string[] = ['member_no', 'name', 'email', 'phone', 'branch', 'language', ...defs.map((d) => d.key)];
  const lines = [
    header,
    ['UFC-001', 'Jane Wanjiru', 'jane@example.org', '0712 345 678', first, 'en', ...defs.map((d) => example[d.type])],
    ['UFC-002', 'John Otieno', '', '+254 722 345 002', second, 'sw', ...defs.map(() => '')],
  ];
  return `${lines.map((l) => l.map(cell).join(',')).join('\r\n')}\r\n`;
}
