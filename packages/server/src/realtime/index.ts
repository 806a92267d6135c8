import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '@kura/contract';
import type { AppContext } from '../context';

export type Realtime = { io: Server<ClientToServerEvents, ServerToClientEvents>; close(): Promise<void> };

/** Socket.IO on the HTTP server's port, path /socket.io. Channels and emitters come with the voting core. */
export async function attachRealtime(_ctx: AppContext, server: HttpServer): Promise<Realtime> {
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(server, { path: '/socket.io', serveClient: false });
  return {
    io,
    close: () => new Promise<void>((resolve) => void io.close(() => resolve())),
  };
}
