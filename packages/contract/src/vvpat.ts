import { z } from 'zod';
import { c, errors, meta, PageMeta, PageQuery, VvpatRow } from './common';
import { ElectionQuery, filterSchema, textIdNumber } from './validation';

export const VvpatSearchQuery = PageQuery.merge(ElectionQuery).extend({
  vvpat: filterSchema(64),
  /** an empty value (a cleared select) means "any position" */
  psk_position_id: z.preprocess((v) => (v === '' || v === null ? undefined : v), textIdNumber('psk_position_id').optional()),
});

/** `{data: {votes}, meta: {current_page, last_page, per_page, total}}` */
export const VvpatPage = z.object({ data: z.object({ votes: z.array(VvpatRow) }), meta: PageMeta });

export const vvpatRouter = c.router({
  listVvpat: {
    method: 'GET',
    path: '/psk/admin/vvpat',
    summary: 'Verifiable paper audit trail: receipt codes with their choice, paginated',
    description:
      "One election (`?election_id`, default the current one). Under its results visibility `after_close`: 403 until voting closes (the rows add up to the counts). A row names the choice by the position's kind: a candidate, or a motion's option (`Yes`, `No`, `Abstain`); a ranked ballot's rows follow the voter's order of preference.",
    query: PageQuery.merge(ElectionQuery),
    responses: { 200: VvpatPage, ...errors(401, 403, 404) },
    metadata: meta('admin'),
  },
  searchVvpat: {
    method: 'GET',
    path: '/search/vvpat',
    summary: 'Search the audit trail by receipt code (vvpat) or position (psk_position_id), paginated',
    description:
      "One election (`?election_id`, default the current one). Under its results visibility `after_close`: 403 until voting closes (the rows add up to the counts). A row names the choice by the position's kind: a candidate, or a motion's option (`Yes`, `No`, `Abstain`); a ranked ballot's rows follow the voter's order of preference.",
    query: VvpatSearchQuery,
    responses: { 200: VvpatPage, ...errors(401, 403, 404) },
    metadata: meta('admin'),
  },
  getMyVvpat: {
    method: 'GET',
    path: '/psk/vvpat',
    summary: "The caller's own ballots with their receipt codes, of every election (each row names its election)",
    description:
      "Newest election first. Each row's `count` is null while voters may not see that election's results (results visibility `staff` or `after_close`, before close). A row names the choice by the position's kind: a candidate, or a motion's option (`Yes`, `No`, `Abstain`); a ranked ballot's rows follow the voter's order of preference.",
    responses: { 200: z.object({ data: z.object({ votes: z.array(VvpatRow) }) }), ...errors(401, 403) },
    metadata: meta('voter'),
  },
});
