// The baseline of figure 3: a bare node:http server answering every request with one fixed body
// (the exact bytes psk/results answered), on 127.0.0.1. Run as a child: argv[2] = body file.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const body = readFileSync(process.argv[2]);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
process.on('message', (m) => m === 'stop' && server.close(() => process.exit(0)));
