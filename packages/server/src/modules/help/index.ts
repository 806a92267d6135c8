/**
 * The help module's public face: what the app and other modules may use. Everything else in
 * this folder is internal (an ESLint rule keeps other modules out of it).
 */
export { helpRoutes } from './help.router';
/** Per-account limits on help reports (429 / 413 texts), for tests and docs. */
export { REPORT_STORAGE_FULL, REPORT_STORAGE_PER_ACCOUNT, REPORTS_PER_HOUR, TOO_MANY_REPORTS } from './help.service';
/** The module's factory: its routes and services from the core and what it uses of other modules (src/services.ts composes them). */
export * from './module';
