/**
 * The lifecycle module's public face: what the app and other modules may use. Everything else in
 * this folder is internal (an ESLint rule keeps other modules out of it).
 */
/** The election's life: the voting switch, the schedule, the close. */
export { toggleElection } from './toggle';
export { closeElection, openOnSchedule, type Scheduler } from './lifecycle';
/** The refusals of a closed election (toggle, set-up, candidates, members, nominations, reminders). */
export { assertNotClosed, assertNotClosedIn, isClosed, type ClosedPart } from './lifecycle';
/** The module's factory: its routes and services from the core and what it uses of other modules (src/services.ts composes them). */
export * from './module';
