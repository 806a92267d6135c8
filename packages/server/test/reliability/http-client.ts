import { Agent, request as httpRequest } from 'node:http';

/** A raw HTTP client: exact headers and bytes (fetch would add a content type), keep-alive, a deadline. */
export type RawAnswer = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

export function rawRequest(
  base: { host?: string; port: number },
  input: {
    method: string;
    path: string;
    headers?: Record<string, string>;
    body?: Buffer | string;
    timeoutMs?: number;
    /** a connection of its own, closed after the answer */ fresh?: boolean;
  },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const body = input.body === undefined ? undefined : Buffer.isBuffer(input.body) ? input.body : Buffer.from(input.body);
    const req = httpRequest(
      {
        host: base.host ?? '127.0.0.1',
        port: base.port,
        method: input.method,
        path: input.path,
        agent: input.fresh ? false : agent,
        headers: {
          ...(body ? { 'content-length': String(body.length) } : {}),
          ...(input.fresh ? { connection: 'close' } : {}),
          ...input.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(input.timeoutMs ?? 20_000, () =>
      req.destroy(new Error(`no answer within ${input.timeoutMs ?? 20_000} ms: ${input.method} ${input.path}`)),
    );
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

export function closeRawClients(): void {
  agent.destroy();
}
