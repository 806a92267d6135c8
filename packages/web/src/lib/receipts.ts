/**
 * The election a receipt belongs to (docs/api.md "Many elections": `psk/vvpat` lists the caller's
 * receipts of every election with the election's title, and the public receipt check names it).
 * Read leniently: the server may send `election` as the title or as `{id, title}`, or
 * `election_id` / `election_title` beside the row; an older server sends none of them.
 */
export type ReceiptElection = { id?: number; title?: string };

export function receiptElection(row: object): ReceiptElection | undefined {
  const r = row as { election?: unknown; election_id?: unknown; election_title?: unknown };
  const out: ReceiptElection = {};
  if (typeof r.election === 'string' && r.election.trim()) out.title = r.election;
  else if (r.election && typeof r.election === 'object') {
    const e = r.election as { id?: unknown; title?: unknown };
    if (typeof e.id === 'number') out.id = e.id;
    if (typeof e.title === 'string' && e.title.trim()) out.title = e.title;
  }
  if (out.id === undefined && typeof r.election_id === 'number') out.id = r.election_id;
  if (out.title === undefined && typeof r.election_title === 'string' && r.election_title.trim()) out.title = r.election_title;
  return out.id === undefined && out.title === undefined ? undefined : out;
}

/**
 * Whether a receipt is one of this election's: by id when the receipt names one, else by title.
 * A receipt that names no election (a server of the single-election kind) belongs to whichever
 * election is asked about, as before.
 */
export function receiptInElection(row: object, election: { id?: number; title?: string } | undefined): boolean {
  const named = receiptElection(row);
  if (!named || !election) return true;
  if (named.id !== undefined && election.id !== undefined) return named.id === election.id;
  if (named.title !== undefined && election.title !== undefined) return named.title === election.title;
  return true;
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[_\s]+/g, ' ')
    .trim();

/**
 * The positions of a ballot the voter has voted for: a receipt of this election names the
 * position by its title (the receipts carry no position id).
 */
export function votedPositionIds(
  receipts: readonly ({ position: string } & object)[],
  groups: readonly { position_id: number; title: string }[],
  election?: { id?: number; title?: string },
): Set<number> {
  const done = new Set(receipts.filter((r) => receiptInElection(r, election)).map((r) => norm(r.position)));
  return new Set(groups.filter((g) => done.has(norm(g.title))).map((g) => g.position_id));
}
