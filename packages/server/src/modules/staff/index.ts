/**
 * The staff module's public face: what the app and other modules may use. Everything else in
 * this folder is internal (an ESLint rule keeps other modules out of it).
 */
export { staffRoutes } from './staff.router';
export { BAD_PASSWORD_LINK, LAST_ADMIN, NOT_YOURSELF, SET_PASSWORD_PATH, STAFF_EXISTS } from './staff.service';
/** The set-up page lists the agents. */
export { listAgents } from './staff.service';
/** The module's factory: its routes and services from the core and what it uses of other modules (src/services.ts composes them). */
export * from './module';
