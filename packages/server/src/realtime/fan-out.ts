/**
 * Writes to `ids` in slices of `size` with a turn of the event loop between slices, so requests
 * interleave with a broadcast to thousands of sockets. Before each slice the ids are checked
 * again: a socket that left the room meanwhile (disconnected, or demoted when its session ended)
 * gets nothing more of this broadcast.
 */
export async function writeInSlices(ids: readonly string[], size: number, stillIn: (id: string) => boolean, write: (ids: string[]) => void): Promise<void> {
  for (let i = 0; i < ids.length; i += size) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    const slice = ids.slice(i, i + size).filter(stillIn);
    if (slice.length > 0) write(slice);
  }
}
