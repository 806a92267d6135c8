import { EMIT_COALESCE_MS, type ChangedEntity } from '@kura/contract';
import type { DomainEventHandlers } from '../events';
import type { RealtimeContext } from './context';
import { coalesce, type Coalescer } from './coalesce';
import { logFailure, type HubUnit, type RealtimeServer } from './hub';

/**
 * The staff `changes` channel (docs/api.md "Realtime"): another admin's edit, an import or a
 * nomination tells every staff screen which kind of thing changed, and the screen reads it again,
 * so admins see each other's changes without waiting for their cache to go stale. Sent to this
 * process's sockets only: every process raises the domain event itself (relayed with scale-out),
 * so each tells its own. Coalesced per kind, as the results channels are.
 */
export function entityChanges(ctx: RealtimeContext, io: RealtimeServer): HubUnit {
  const emitters = new Map<ChangedEntity, Coalescer>();
  const tell = (entity: ChangedEntity) => {
    let emitter = emitters.get(entity);
    if (!emitter)
      emitters.set(
        entity,
        (emitter = coalesce(
          EMIT_COALESCE_MS,
          () => void io.local.to('changes').emit('EntityChanged', { entity }),
          logFailure(ctx, `emit on changes (${entity}) failed`),
        )),
      );
    emitter.request();
  };
  const events: DomainEventHandlers = {
    'election.changed': () => tell('election'),
    'election.toggled': () => tell('election'),
    // A position's change raises candidates.changed (the ballot's shape): both lists are read again.
    'candidates.changed': () => {
      tell('candidates');
      tell('positions');
    },
    'members.changed': () => tell('members'),
    'nominations.changed': () => tell('nominations'),
  };
  return { events, stop: () => emitters.forEach((e) => e.close()) };
}
