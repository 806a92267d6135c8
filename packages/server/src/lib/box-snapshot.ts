import type { Core } from '../core';
import type { Tx } from '../db/client';
import { waitForBoxRewrite } from '../db/ballot-box';
import type { ElectionId } from '../db/election-store';
import { inTransaction, type UnitOfWork } from './unit-of-work';

/**
 * The one way to read an election's ballot box in one snapshot (REPEATABLE READ): the live tally's
 * resync, a commitment's digest, the audit, the audit trail's page. It first waits until no close
 * is re-mixing that box (`waitForBoxRewrite`), and only then takes its snapshot. The re-mix
 * truncates the box's partitions, and a truncate is not MVCC-safe: a snapshot taken before it
 * commits reads the new, empty files, so a resync read every count as 0 and a commitment
 * published 0 ballots (docs/architecture.md "Reads of results"). Lint allows REPEATABLE READ
 * nowhere else, so a new reader of the box cannot forget the wait.
 *
 * `write` is for the one reader that also writes (a commitment appends its row); every other
 * reader is read-only.
 */
export async function inBoxSnapshot<T>(
  ctx: Pick<Core, 'database' | 'logger'>,
  label: string,
  electionId: ElectionId,
  work: (tx: Tx, unit: UnitOfWork) => Promise<T>,
  options: { write?: boolean } = {},
): Promise<T> {
  return inTransaction(
    ctx,
    label,
    async (tx, unit) => {
      await waitForBoxRewrite(tx, electionId);
      return work(tx, unit);
    },
    // eslint-disable-next-line no-restricted-syntax -- the one REPEATABLE READ transaction, opened after the wait
    { isolationLevel: 'repeatable read', accessMode: options.write ? 'read write' : 'read only' },
  );
}
