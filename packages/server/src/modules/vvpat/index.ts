/**
 * The vvpat module's public face: what the app and other modules may use. Everything else in
 * this folder is internal (an ESLint rule keeps other modules out of it).
 */
export { vvpatRoutes } from './vvpat.router';
