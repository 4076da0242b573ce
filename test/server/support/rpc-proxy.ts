// A JSON-RPC proxy between the service and anvil that a test can take down (connections reset), make refuse broadcasts or
// lose the node's answer to them, or have answer something twice.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RpcProxy {
  url: string;
  /**
   * pass: forwards; down: resets every connection (the node is gone); error: answers every call with a JSON-RPC internal
   * error (a node in trouble); no-send: answers eth_sendRawTransaction with a 503 (the broadcast is lost); lose-answer:
   * forwards eth_sendRawTransaction to the node and then resets the connection (the node has it; the service never hears).
   */
  mode: 'pass' | 'down' | 'error' | 'no-send' | 'lose-answer';
  /** Raw transactions the node took while their answer was lost (`lose-answer`). */
  lost: string[];
  /** Rewrites the node's answer to `method` before the service gets it (a node that answers a log twice, say). */
  rewrite: Map<string, (result: unknown) => unknown>;
  /** Raw transactions the proxy refused to forward (while `no-send`, or named in `refuse`). */
  dropped: string[];
  /** Raw transactions refused in any mode: one broadcast lost while the others go through. */
  refuse: Set<string>;
  /** Raw transactions answered "already known" without forwarding, as geth answers one in its pool (anvil re-checks its fees instead). */
  pooled: Set<string>;
  close(): Promise<void>;
}

const bodyOf = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const proxy: RpcProxy = { url: '', mode: 'pass', dropped: [], lost: [], rewrite: new Map(), refuse: new Set(), pooled: new Set(), close: async () => {} };
  const server: Server = createServer(async (req, res) => {
    if (proxy.mode === 'down') {
      req.socket.resetAndDestroy();
      return;
    }
    const body = await bodyOf(req);
    const call = JSON.parse(body) as { id?: unknown; method?: string; params?: unknown[] };
    const rpcError = (message: string) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: call.id ?? null, error: { code: -32000, message } }));
    if (proxy.mode === 'error') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: call.id ?? null, error: { code: -32603, message: 'internal error' } }));
      return;
    }
    if (call.method === 'eth_sendRawTransaction' && (proxy.mode === 'no-send' || proxy.refuse.has(String(call.params?.[0])))) {
      proxy.dropped.push(String(call.params?.[0]));
      res.writeHead(503).end('broadcast dropped by the test');
      return;
    }
    if (call.method === 'eth_sendRawTransaction' && proxy.pooled.has(String(call.params?.[0]))) {
      rpcError('already known');
      return;
    }
    try {
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      let answer = await upstream.text();
      if (call.method === 'eth_sendRawTransaction' && proxy.mode === 'lose-answer') {
        proxy.lost.push(String(call.params?.[0]));
        req.socket.resetAndDestroy();
        return;
      }
      const rewrite = call.method && proxy.rewrite.get(call.method);
      if (rewrite && upstream.ok) {
        const reply = JSON.parse(answer) as { result?: unknown };
        if ('result' in reply) answer = JSON.stringify({ ...reply, result: rewrite(reply.result) });
      }
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(answer);
    } catch {
      res.writeHead(502).end('upstream unreachable');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return proxy;
}
