import type { Contract } from '@kura/contract';
import type { ResultsContext } from './context';
import type { RouterImplementation } from '../../http/routes';
import { bearerToken, callerOf } from '../../auth/access';
import { electionOf } from '../../http/election-param';
import { createIpLimit } from '../../auth/rate-limits';
import { resolveSession } from '../../auth/sessions';
import { assertMayViewResults, mayViewResults, type Viewer } from './visibility';
import { listCommitments } from './commitments';
import { exportResultsCsv, getResults, getStatistics, lookupReceipt } from './results.service';

/** The routes of the `elections` contract domain this module answers: results, statistics, commitments, receipts. */
type ResultsRoutes = Pick<
  RouterImplementation<Contract['api']['elections']>,
  | 'getResults'
  | 'getDashboard'
  | 'getAgentResults'
  | 'getStatistics'
  | 'getAgentStatistics'
  | 'listCommitments'
  | 'getReceipt'
  | 'exportResults'
>;

export function resultsRoutes(ctx: ResultsContext): ResultsRoutes {
  const results = async (id: number) => ({ status: 200 as const, body: { data: { data: await getResults(ctx, id) } } });
  /** Results under the election's results visibility (SECURITY.md "Results visibility"). */
  const gated = async (id: number, viewer: () => Promise<Viewer>) => {
    const gate = await ctx.resultsGate.read(id);
    if (!mayViewResults(gate, null)) assertMayViewResults(gate, await viewer());
  };
  // The public route ignores tokens unless results are not public: then a staff token counts.
  const optionalViewer = (req: Parameters<typeof bearerToken>[0]) => async (): Promise<Viewer> => {
    const token = bearerToken(req);
    return token ? ((await resolveSession(ctx, token))?.role ?? null) : null;
  };
  return {
    getResults: async ({ req, query }) => {
      const id = await electionOf(ctx, query);
      await gated(id, optionalViewer(req));
      return results(id);
    },
    getDashboard: async ({ req, query }) => {
      const id = await electionOf(ctx, query);
      await gated(id, async () => callerOf(req).role);
      return results(id);
    },
    getAgentResults: async ({ req, query }) => {
      const id = await electionOf(ctx, query);
      await gated(id, async () => callerOf(req).role);
      return results(id);
    },

    getStatistics: async ({ query }) => ({ status: 200, body: { data: { data: await getStatistics(ctx, await electionOf(ctx, query)) } } }),
    getAgentStatistics: async ({ query }) => ({ status: 200, body: { data: await getStatistics(ctx, await electionOf(ctx, query)) } }),

    listCommitments: async ({ query }) => ({
      status: 200,
      // The batch size is configuration, not a count: it says why a small election's commitments read 0 (docs/api.md).
      body: { data: await listCommitments(ctx, await electionOf(ctx, query)), mix_batch: ctx.env.MIX_MIN_BATCH },
    }),

    getReceipt: {
      // Public and answers whether a code exists: limited per address, generously (shared NAT).
      middleware: [
        createIpLimit(ctx, {
          limit: ctx.env.RATE_LIMIT_RECEIPT_CHECKS_PER_HOUR,
          message: 'limits.receiptChecks',
          headers: true,
        }),
      ],
      handler: async ({ params }) => ({ status: 200, body: await lookupReceipt(ctx, params.vvpat) }),
    },

    exportResults: async ({ req, res, query }) => {
      const id = await electionOf(ctx, query);
      await gated(id, async () => callerOf(req).role);
      const { filename, csv } = await exportResultsCsv(ctx, id);
      res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      return { status: 200, body: csv };
    },
  };
}
