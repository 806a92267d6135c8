/**
 * The set-up module's public face: branches and positions as an admin defines them. Everything
 * else in this folder is internal (an ESLint rule keeps other modules out of it).
 */
export { setupRoutes } from './setup.router';
/** The demo seed sets up its election through these, as an admin would. */
export { createBranch, createPositions, deleteBranch, deletePosition, renameBranch, updatePosition } from './setup.service';
/** The module's factory: its routes and services from the core and what it uses of other modules (src/services.ts composes them). */
export * from './module';
