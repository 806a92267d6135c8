/**
 * Downloaded files are named after their election (docs/api.md "Many elections"): a secretary
 * who keeps a folder of results for years can tell `agm-2026-results.csv` from last year's. The
 * name is ASCII (letters folded, anything else a dash, at most 60 characters); a title with no
 * Latin letters at all falls back to `election-<id>`.
 */
export function slug(text: string, max = 60): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, max)
    .replace(/-+$/, '');
}

export function electionFileName(election: { id: number; title: string | null }, what: string, extension: string): string {
  const base = slug(election.title ?? '') || `election-${election.id}`;
  const part = slug(what);
  return `${base}${part ? `-${part}` : ''}.${extension}`;
}
