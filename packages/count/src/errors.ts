/** Input the count refuses (a ballot naming a candidate twice, an unknown candidate, no seats...). */
export class CountError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CountError';
  }
}
