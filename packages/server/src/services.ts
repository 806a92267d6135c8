import { coreOf, type Core } from './core';
import { BackgroundSender, createDelivery, type Delivery } from './delivery';
import { createAuth } from './modules/auth';
import { createBallots } from './modules/ballots';
import { createDeclaration } from './modules/declaration';
import { createCandidates } from './modules/candidates';
import { createElections } from './modules/elections';
import { createHelp } from './modules/help';
import { createLifecycle } from './modules/lifecycle';
import { createLogs } from './modules/logs';
import { createMembers } from './modules/members';
import { createNominations } from './modules/nominations';
import { createReminders } from './modules/reminders';
import { createResults } from './modules/results';
import { createRegister } from './modules/register';
import { createSetup } from './modules/setup';
import { createUssd } from './modules/ussd';
import { createStaffModule } from './modules/staff';
import { createVvpat } from './modules/vvpat';
import { createRealtime } from './realtime/module';

/**
 * The composition root: every module is built here from the core and, as named deps, the
 * interfaces it uses of other modules, once per context and nowhere else (docs/architecture.md
 * "How modules are composed"). Building has no side effects (no timer, no listener, no query);
 * `startServices` starts the services in SERVICE_ORDER and `stopServices` stops them in reverse
 * ("Where state lives").
 */
export function composeApp(core: Core) {
  // Infrastructure several modules use: one transport per process, the notices sent after answers.
  const delivery: Delivery = createDelivery(core.env, core.logger);
  const notices = new BackgroundSender(core.logger);

  const ballots = createBallots(core);
  const { ballotQueue } = ballots.services;
  const elections = createElections(core);
  const results = createResults(core, { ballotQueue });
  const { voting, resultsGate } = results.services;
  const declaration = createDeclaration(core, { ballotQueue, resultsGate, voting });
  const lifecycle = createLifecycle(core, { ballotQueue, resultsGate, voting });
  const auth = createAuth(core, { delivery });
  const members = createMembers(core, { delivery, notices });
  const candidates = createCandidates(core, { delivery, notices });
  const nominations = createNominations(core, { delivery, notices });
  const vvpat = createVvpat(core, { ballotQueue, resultsGate, voting });
  const reminders = createReminders(core, { delivery });
  const logs = createLogs(core);
  const help = createHelp(core);
  const setup = createSetup(core);
  const staff = createStaffModule(core, { delivery, notices });
  const realtime = createRealtime(core, { ballotQueue, resultsGate, voting });
  const ussd = createUssd(core, { delivery, notices });
  const register = createRegister(core, { delivery, notices });

  const services = {
    ...ballots.services,
    ...results.services,
    ...lifecycle.services,
    ...auth.services,
    ...reminders.services,
    /** Notices sent after the answer (a member's contact details changed), one at a time; stopping waits for them. */
    notices,
    /** Email and SMS out (sign-in codes, reminders): closed after the services stop. */
    delivery,
  };
  /** Every module's handlers by contract domain, on the core the Express app runs on; each app builds its own. */
  const routes = (app: Core) => {
    const at = coreOf(app);
    // The `elections` contract domain is answered by three modules: the election (catalogue), its voting switch (lifecycle), results.
    const catalogue = elections.routes(at);
    const life = lifecycle.routes(at);
    return {
      auth: auth.routes(at),
      members: members.routes(at),
      candidates: candidates.routes(at),
      nominations: nominations.routes(at),
      logs: logs.routes(at),
      help: help.routes(at),
      ballots: ballots.routes(at),
      elections: { ...catalogue.elections, ...life.elections, ...results.routes(at).elections },
      lifecycle: life.lifecycle,
      organisation: catalogue.organisation,
      evidence: declaration.routes(at).evidence,
      vvpat: vvpat.routes(at),
      reminders: reminders.routes(at),
      setup: setup.routes(at),
      staff: staff.routes(at),
      ussd: ussd.routes(at),
      register: register.routes(at),
    };
  };
  /** The USSD gateway's callback (not a contract route: form-encoded in, text/plain out), on the app's core. */
  const ussdCallback = (app: Core) => ussd.callback(coreOf(app));
  return { ...core, ...services, routes, realtime, ussdCallback };
}

/** A composed process: the core, every module's services, its routes and the realtime module. */
export type AppContext = ReturnType<typeof composeApp>;
/** The long-lived services of one process (see "Where state lives"). */
export type Services = Omit<AppContext, keyof Core | 'routes' | 'realtime' | 'ussdCallback'>;
/** Every module's ts-rest handlers, by contract domain. */
export type ApiRoutes = ReturnType<AppContext['routes']>;

/**
 * Start order: the results gate and the snapshot first (what requests read), then the loops that
 * write (mixer, commitments), then the ones that act on the election and its members (schedule,
 * reminders), then the notices sent after answers. Stopped in reverse: the notices queued first.
 */
export const SERVICE_ORDER = [
  'resultsGate',
  'voting',
  'mixer',
  'commitments',
  'scheduler',
  'reminders',
  'notices',
] as const satisfies readonly (keyof Services)[];

export async function startServices(ctx: Services): Promise<void> {
  for (const name of SERVICE_ORDER) await ctx[name].start();
}

export async function stopServices(ctx: Services): Promise<void> {
  for (const name of [...SERVICE_ORDER].reverse()) await ctx[name].stop();
  // Last: the reminder sender waits for its sends in flight when it stops.
  ctx.delivery.close();
}
