import type { Contract } from '@kura/contract';
import type { ElectionsContext } from './context';
import type { RouterImplementation } from '../../http/routes';
import { bearerToken, callerOf } from '../../auth/access';
import { actorOf } from '../../auth/actor';
import { createIpLimit } from '../../auth/rate-limits';
import { resolveSession } from '../../auth/sessions';
import { assertMayViewResults, mayViewResults, type Viewer } from './visibility';
import { listCommitments } from './commitments';
import { getElection, updateElection } from './election.service';
import { exportResultsCsv, getElectionStatus, getResults, getStatistics, lookupReceipt, toggleElection } from './elections.service';

export function electionsRoutes(ctx: ElectionsContext): RouterImplementation<Contract['api']['elections']> {
  const results = async () => ({ status: 200 as const, body: { data: { data: await getResults(ctx) } } });
  /** Results under the election's results visibility (SECURITY.md "Results visibility"). */
  const gated = async (viewer: () => Promise<Viewer>) => {
    const gate = await ctx.resultsGate.read();
    if (!mayViewResults(gate, null)) assertMayViewResults(gate, await viewer());
  };
  // The public route ignores tokens unless results are not public: then a staff token counts.
  const optionalViewer = (req: Parameters<typeof bearerToken>[0]) => async (): Promise<Viewer> => {
    const token = bearerToken(req);
    return token ? ((await resolveSession(ctx, token))?.role ?? null) : null;
  };
  return {
    getElection: async () => ({ status: 200, body: { data: await getElection(ctx) } }),

    updateElection: async ({ req, body }) => ({ status: 200, body: { data: await updateElection(ctx, await actorOf(ctx, req), body) } }),

    getElectionStatus: async () => ({ status: 200, body: { active: await getElectionStatus(ctx) } }),

    toggleElection: async ({ req, body }) => {
      const active = await toggleElection(ctx, await actorOf(ctx, req), body.status);
      return { status: 200, body: { active, message: active === '1' ? 'Voting has been enabled' : 'Voting has been disabled' } };
    },

    getResults: async ({ req }) => {
      await gated(optionalViewer(req));
      return results();
    },
    getDashboard: async ({ req }) => {
      await gated(async () => callerOf(req).role);
      return results();
    },
    getAgentResults: async ({ req }) => {
      await gated(async () => callerOf(req).role);
      return results();
    },

    getStatistics: async () => ({ status: 200, body: { data: { data: await getStatistics(ctx) } } }),
    getAgentStatistics: async () => ({ status: 200, body: { data: await getStatistics(ctx) } }),

    listCommitments: async () => ({ status: 200, body: { data: await listCommitments(ctx) } }),

    getReceipt: {
      // Public and answers whether a code exists: limited per address, generously (shared NAT).
      middleware: [
        createIpLimit(ctx, {
          limit: ctx.env.RATE_LIMIT_RECEIPT_CHECKS_PER_HOUR,
          message: 'Too many receipt checks from this address, please try again later',
          headers: true,
        }),
      ],
      handler: async ({ params }) => ({ status: 200, body: await lookupReceipt(ctx, params.vvpat) }),
    },

    exportResults: async ({ req, res }) => {
      await gated(async () => callerOf(req).role);
      const csv = await exportResultsCsv(ctx);
      res.setHeader('Content-Disposition', 'attachment; filename="results.csv"');
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      return { status: 200, body: csv };
    },
  };
}
