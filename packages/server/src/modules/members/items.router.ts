import type { Contract } from '@kura/contract';
import { asc } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { items } from '../../db/schema';
import type { RouterImplementation } from '../../http/routes';

type BallotRoutes = RouterImplementation<Contract['api']['ballots']>;

/**
 * `GET items` for the nominate page. It lives in the ballots contract domain, which another
 * module serves, so it is exported on its own and spread into that domain's handlers.
 */
export function itemsRoutes(ctx: AppContext): Pick<BallotRoutes, 'listItems'> {
  return {
    listItems: async () => ({
      status: 200,
      body: { data: await ctx.database.db.select({ id: items.id, title: items.title, description: items.description }).from(items).orderBy(asc(items.id)) },
    }),
  };
}
