import { MAX_ISSUE_IMAGES, type Contract } from '@kura/contract';
import type { Core } from '../../core';
import type { RouterImplementation } from '../../http/routes';
import { actorOf } from '../../auth/actor';
import { filesOf, imageUpload } from '../../lib/uploads';
import { listIssues, reportIssue } from './help.service';

/** Browsers send `images[]`; plain API clients often send `images`. Both count towards the five. */
const IMAGE_FIELDS = ['images[]', 'images'];

export function helpRoutes(ctx: Core): RouterImplementation<Contract['api']['help']> {
  return {
    reportIssue: {
      middleware: [imageUpload(IMAGE_FIELDS.map((name) => ({ name, maxCount: MAX_ISSUE_IMAGES })))],
      handler: async ({ body, req }) => {
        await reportIssue(ctx, await actorOf(ctx, req), body.details, filesOf(req, IMAGE_FIELDS));
        return { status: 201, body: { message: 'Issue reported successfully' } };
      },
    },

    listIssues: async ({ query }) => ({ status: 200, body: await listIssues(ctx, query) }),
  };
}
