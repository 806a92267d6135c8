/**
 * The elections module's public face: what the app and other modules may use. Everything else in
 * this folder is internal (an ESLint rule keeps other modules out of it).
 */
export { electionsRoutes } from './elections.router';
/** The election's configuration (texts, schedule, results visibility) and its phase. */
export { applyElectionDefaults, getElection, toElection, updateElection } from './election.service';
/** The organisation's elections: create, archive (the demo seed sets up its past election with them). */
export { archiveElection, createElection as addElection } from './catalogue';
/** The election store: every read and write of the election's state, and which election is meant. */
export {
  closedElectionIds,
  CURRENT_ELECTION,
  currentElectionId,
  electionValue,
  lockForShare,
  organisationValue,
  readActive,
  readAllStates,
  readOrganisation,
  readState,
  setActive,
  underWayElectionIds,
  type ElectionId,
  type ElectionRecord,
} from '../../db/election-store';
export { computePhase, type PhaseInput } from './phase';
/** The module's factory: its routes and services from the core and what it uses of other modules (src/services.ts composes them). */
export * from './module';
