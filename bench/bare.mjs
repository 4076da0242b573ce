// The floor: a bare node:http server in a process of its own, answering whatever bytes the bench sends it over IPC
// (the current case's real answer), for any method and path.
import { createServer } from 'node:http';

let body = Buffer.from('{}');
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body));
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => {
  if (m.stop) return server.close(() => process.exit(0));
  body = Buffer.from(m.body, 'base64');
  process.send({ id: m.id, ok: true });
});
