/**
 * Postgres array literals, sent as one text parameter and cast in SQL (`${textArray(xs)}::text[]`).
 * A statement that takes `unnest` of arrays has the same text for any number of rows, so it is
 * prepared once, and its building costs nothing however large the batch (hot paths: votes, mixer).
 */
export function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

export function intArray(values: readonly number[]): string {
  return `{${values
    .map((v) => {
      if (!Number.isSafeInteger(v)) throw new TypeError(`not an integer: ${v}`);
      return String(v);
    })
    .join(',')}}`;
}
