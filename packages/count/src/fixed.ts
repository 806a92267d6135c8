/**
 * Fixed-point arithmetic of the STV count: every value is an integer number of hundred-thousandths
 * (10^5 = one vote), as the Scottish rules count "to five decimal places (any remainder being
 * ignored)". Values are JavaScript safe integers: a count of up to 90 billion ballots stays below
 * 2^53. The one product that can pass 2^53 (a ballot's value times a surplus, in a transfer value)
 * is computed in bigint; see transferValue.
 */

/** One vote in fixed point. */
export const ONE = 100_000;

/** The number of decimal places every value carries. */
export const PLACES = 5;

/** The largest total (in fixed point) this engine accepts: its sums must stay exact. */
export const MAX_TOTAL = Number.MAX_SAFE_INTEGER;

/** `votes` (fixed point) as a decimal string with 5 places: 123456789 -> "1234.56789". */
export function format(value: number): string {
  const negative = value < 0;
  const abs = Math.abs(value);
  const whole = Math.floor(abs / ONE);
  const frac = String(abs % ONE).padStart(PLACES, '0');
  return `${negative ? '-' : ''}${whole}.${frac}`;
}

/** A decimal string with at most 5 places ("12", "12.5", "12.00001") in fixed point. */
export function parse(text: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,5}))?$/.exec(text);
  if (!m) throw new Error(`not a decimal with at most ${PLACES} places: ${text}`);
  const value = Number(m[2]) * ONE + Number((m[3] ?? '').padEnd(PLACES, '0'));
  return m[1] ? -value : value;
}

/**
 * The transfer value of rule 48(3): value × surplus ÷ total, "the calculation being made to five
 * decimal places (any remainder being ignored)", i.e. truncated. All three are fixed point; the
 * product value × surplus reaches 10^5 × (ballots × 10^5), past 2^53 from about 900,000 ballots,
 * so it is taken in bigint.
 */
export function transferValue(value: number, surplus: number, total: number): number {
  if (total <= 0) return 0;
  return Number((BigInt(value) * BigInt(surplus)) / BigInt(total));
}
