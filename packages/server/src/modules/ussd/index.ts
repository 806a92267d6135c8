/**
 * The USSD module's public face: what the app and other modules may use. Everything else in
 * this folder is internal (an ESLint rule keeps other modules out of it).
 */
export { SESSION_IDLE_MS, type UssdSessionData } from './ussd.service';
export { DatabaseSessionStore, type StoredSession, type UssdSessionStore } from './session-store';
export { RedisSessionStore } from './redis-session-store';
export { MAX_SCREEN } from './screens';
export { gsmLength, isGsm, toGsm } from './gsm';
/** The module's factory (src/services.ts composes it). */
export * from './module';
