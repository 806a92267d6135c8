/**
 * How a position is named on the wire: the title `Chairperson National` (results, ballots,
 * receipts, vvpat rows, vote errors) and the key `Chairperson_National` (the results group key,
 * the same as the web's position select value). Every title is built here.
 */
export type NamedPosition = { name: string; level: string };

export const positionTitle = (p: NamedPosition): string => `${p.name} ${p.level}`;

export const positionKey = (p: NamedPosition): string => `${p.name}_${p.level}`;
