/**
 * The reminders module's public face: what the app and other modules may use. Everything else in
 * this folder is internal (an ESLint rule keeps other modules out of it).
 */
export { remindersRoutes } from './reminders.router';
/** A member's removal clears them from the recipient lists. */
export { forgetRecipient } from './reminders.service';
/** The background sender the composition root puts on the context (`ctx.reminders`). */
/** The module's factory: its routes and services from the core and what it uses of other modules (src/services.ts composes them). */
export * from './module';
