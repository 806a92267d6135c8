/**
 * The nominations module's public face: what the app and other modules may use. Everything else in
 * this folder is internal (an ESLint rule keeps other modules out of it).
 */
export { nominationsRoutes } from './nominations.router';
/** The module's factory: its routes and services from the core and what it uses of other modules (src/services.ts composes them). */
export * from './module';
