import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents, SocketRole } from '@kura/contract';
import type { RealtimeContext } from './context';
import type { DomainEventHandlers } from '../events';

/** Between server processes: one sealed, padded message (relay.ts). */
export type InterServerEvents = { 'kura:relay': (sealed: string) => void };
/** What a socket carries: its role from the handshake (null: public channels only) and its session. */
export type SocketData = { role: SocketRole; tokenHash?: string };
export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/**
 * One unit of the hub: the domain events it listens to and what it stops at shutdown. The hub
 * (index.ts) registers a unit's handlers in one call that answers their remover, so no handler
 * is added without being removed.
 */
export type HubUnit = {
  events?: DomainEventHandlers;
  stop?: () => void | Promise<void>;
};

/** Logs a failure of background work (a socket write, a database read) without ending the hub. */
export const logFailure = (ctx: RealtimeContext, what: string) => (err: unknown) => ctx.logger.error({ err }, what);
