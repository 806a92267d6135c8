import { intlLocale } from '@/i18n';
import { isTimeZone } from '@kura/contract';

/**
 * Wall-clock times in the organisation's time zone (an IANA name from the election), whatever zone
 * the reader's browser is in: the schedule is entered and shown in the organisation's zone, so an
 * admin travelling abroad still sets "08:00 in Nairobi" and a member reads the same.
 */

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function wallParts(zone: string, at: Date): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number> {
  let format = partsFormatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormatters.set(zone, format);
  }
  const out = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const p of format.formatToParts(at)) if (p.type in out) out[p.type as keyof typeof out] = Number(p.value);
  return out;
}

/** The zone's offset from UTC at that instant, in minutes (Nairobi +180, New York -300 or -240). */
export function zoneOffsetMinutes(zone: string, at: Date): number {
  const p = wallParts(zone, at);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** "Africa/Nairobi (UTC+03:00)" at that instant. */
export function timeZoneLabel(zone: string, at = new Date()): string {
  const minutes = zoneOffsetMinutes(zone, at);
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${zone} (UTC${minutes >= 0 ? '+' : '-'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)})`;
}

/** ISO instant → a datetime-local input's value, as the wall clock reads in `zone`. */
export function toZonedInput(iso: string | null, zone: string): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const p = wallParts(zone, at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/**
 * A datetime-local value read as the wall clock in `zone` → ISO 8601 (UTC), or null when empty or
 * unreadable. Around a daylight-saving change the offset is taken at the resulting instant, so a
 * time that exists is exact and a skipped one lands just after the gap.
 */
export function fromZonedInput(value: string, zone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, sec] = m.slice(1).map((v) => Number(v ?? '0'));
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!, sec!);
  if (Number.isNaN(wall)) return null;
  // First guess with the offset at the wall time read as UTC, then correct with the offset at the guess.
  const guess = wall - zoneOffsetMinutes(zone, new Date(wall)) * 60_000;
  return new Date(wall - zoneOffsetMinutes(zone, new Date(guess)) * 60_000).toISOString();
}

/** "3 May 2026, 08:00 EAT" in the reader's language (the active one, docs/i18n.md), on the organisation's clock. */
export function formatInZone(iso: string, zone: string, style: 'long' | 'short' = 'long'): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  try {
    return at.toLocaleString(intlLocale(), {
      timeZone: zone,
      day: 'numeric',
      month: style === 'long' ? 'long' : 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    });
  } catch {
    return at.toLocaleString();
  }
}

/** "3 Mei 2026": a day on the organisation's calendar, in the active language. */
export function formatDayInZone(iso: string, zone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  try {
    return at.toLocaleDateString(intlLocale(), { timeZone: zone, day: 'numeric', month: 'long', year: 'numeric' });
  } catch {
    return at.toLocaleDateString(intlLocale());
  }
}

/** Whether this browser knows the IANA zone name (the server checks the same way). */
export function isKnownZone(name: string): boolean {
  return isTimeZone(name.trim());
}

/** Every IANA zone this browser knows, for the schedule's picker (empty where Intl cannot list them). */
export function knownTimeZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
  try {
    return intl.supportedValuesOf?.('timeZone') ?? [];
  } catch {
    return [];
  }
}

const MONTHS_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTHS_LONG = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "8th Jan 2025" (or "9th August 2027" with `long`): the day on the organisation's calendar. */
export function formatOrdinalDay(iso: string, zone: string, month: 'short' | 'long' = 'short'): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const p = wallParts(zone, at);
  const suffix =
    p.day % 10 === 1 && p.day !== 11 ? 'st' : p.day % 10 === 2 && p.day !== 12 ? 'nd' : p.day % 10 === 3 && p.day !== 13 ? 'rd' : 'th';
  return `${p.day}${suffix} ${(month === 'short' ? MONTHS_SHORT : MONTHS_LONG)[p.month - 1]} ${p.year}`;
}
