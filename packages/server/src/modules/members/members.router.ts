import type { MembersContext } from './context';
import type { Contract } from '@kura/contract';
import { AppError } from '../../errors';
import { createIpLimit } from '../../auth/rate-limits';
import type { RouterImplementation } from '../../http/routes';
import { actorOf } from '../../auth/actor';
import { electionOf } from '../../http/election-param';
import { csvUpload, filesOf } from '../../lib/uploads';
import { lookupMemberDetails } from './member-details';
import { importMembers } from './members-import';
import { setOwnLanguage } from './set-own-language';
import { createMember } from './create-member';
import { deleteMember } from './delete-member';
import { importTemplate } from './import-template';
import { assignPositions, listBranches, listPositions, searchMembers, updateMember } from './members.service';

/**
 * The details lookup is public and says whether a member number exists, so it is limited per IP.
 * The ceiling is generous (members share office and carrier NAT addresses); it stops harvesting.
 */
const detailsRateLimit = (ctx: MembersContext) =>
  createIpLimit(ctx, {
    limit: ctx.env.RATE_LIMIT_DETAILS_PER_HOUR,
    message: 'limits.lookups',
    headers: true,
  });

export function membersRoutes(ctx: MembersContext): RouterImplementation<Contract['api']['members']> {
  return {
    listMembers: async ({ query }) => ({ status: 200, body: await searchMembers(ctx, query) }),

    searchMembers: async ({ query: { query, county, phone, email, ...page } }) => ({
      status: 200,
      body: await searchMembers(ctx, page, { query, county, phone, email }),
    }),

    setOwnLanguage: async ({ body, req }) => ({
      status: 200,
      body: { data: await setOwnLanguage(ctx, await actorOf(ctx, req), body.language) },
    }),

    createMember: async ({ body, req }) => ({
      status: 201,
      body: { data: await createMember(ctx, await actorOf(ctx, req), body) },
    }),

    deleteMember: async ({ params, req }) => {
      await deleteMember(ctx, await actorOf(ctx, req), params.id);
      return { status: 204, body: undefined };
    },

    getImportTemplate: async ({ res }) => {
      res.setHeader('Content-Disposition', 'attachment; filename="members-template.csv"');
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      return { status: 200, body: await importTemplate(ctx) };
    },

    updateMember: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await updateMember(ctx, await actorOf(ctx, req), params.id, body) },
    }),

    assignPositions: async ({ body, req, query }) => {
      await assignPositions(
        ctx,
        await actorOf(ctx, req),
        body.member_no,
        body.position_ids,
        await electionOf(ctx, query),
        body.override_reason,
      );
      return { status: 200, body: { message: 'Position assigned successfully' } };
    },

    importMembers: {
      middleware: [csvUpload('file')],
      handler: async ({ req, query, body }) => {
        const [file] = filesOf(req, ['file']);
        if (!file) throw AppError.fieldsSaid({ file: [{ id: 'field.chooseCsv' }] });
        return {
          status: 200,
          body: await importMembers(ctx, await actorOf(ctx, req), file.buffer, {
            createBranches: query.create_branches,
            confirmContactChanges: body.confirm_contact_changes,
          }),
        };
      },
    },

    listBranches: async () => ({ status: 200, body: { data: { data: await listBranches(ctx) } } }),

    listPositions: async ({ query }) => ({ status: 200, body: { data: await listPositions(ctx, await electionOf(ctx, query)) } }),

    listCandidatePositions: async ({ query }) => ({
      status: 200,
      body: { data: { data: await listPositions(ctx, await electionOf(ctx, query)) } },
    }),

    getMemberDetails: {
      middleware: [detailsRateLimit(ctx)],
      // Public; a signed-in caller (bearer optional) may see more of their own record.
      handler: async ({ body, req }) => ({ status: 200, body: await lookupMemberDetails(ctx, body.member_no, req.caller) }),
    },
  };
}
