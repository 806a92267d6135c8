/**
 * The members module's public face: what the app and other modules may use. Everything else in
 * this folder is internal (an ESLint rule keeps other modules out of it).
 */
export { membersRoutes } from './members.router';
export type { MembersContext } from './context';
export { importMembers } from './members-import';
/** Shared with candidates: a candidate is a member, edited and ordered the same way. */
export { applyMemberEdit, assertDeclaredIdentityKept, lockElectionForCandidacies, replacePositions } from './members.service';
/** A candidate edit changes contact details like a member edit: logged, and the member told. */
export { recordContactChanges, sendContactChangeNotices, type ContactChanges } from './contact-changes';
/** Used by the demo seed, which sets up its candidates as an admin would. */
export { assignPositions } from './members.service';
/** The module's factory: its routes and services from the core and what it uses of other modules (src/services.ts composes them). */
export * from './module';
