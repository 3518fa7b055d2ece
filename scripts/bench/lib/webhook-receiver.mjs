/**
 * A local receiver of outbound webhooks (Standard Webhooks: the event id in `webhook-id`). It
 * answers 200 to every POST and counts each event id's deliveries and the ids each body arrived
 * under (an event sent again under a new id would show as one body with two ids). Not a benchmark
 * itself.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';

export const startWebhookReceiver = async () => {
  /** event id → deliveries received */
  const ids = new Map();
  /** hash of the body → the event ids it came with */
  const bodies = new Map();
  let requests = 0;
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    requests += 1;
    const id = String(req.headers['webhook-id'] ?? '');
    if (req.method === 'POST' && id) {
      ids.set(id, (ids.get(id) ?? 0) + 1);
      const hash = createHash('sha256').update(Buffer.concat(chunks)).digest('hex');
      const seen = bodies.get(hash) ?? new Set();
      seen.add(id);
      bodies.set(hash, seen);
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    ids,
    requests: () => requests,
    /**
     * Against the event ids the servers recorded: missing (recorded, never received), unknown
     * (received, never recorded), redelivered (received more than once, as at-least-once allows)
     * and bodies that arrived under more than one id (an unstable id).
     */
    figures(recorded) {
      const wanted = new Set(recorded);
      const missing = [...wanted].filter((id) => !ids.has(id)).length;
      const unknown = [...ids.keys()].filter((id) => !wanted.has(id)).length;
      const redelivered = [...ids.values()].filter((n) => n > 1).length;
      const unstable = [...bodies.values()].filter((set) => set.size > 1).length;
      return { recorded: wanted.size, received: ids.size, missing, unknown, redelivered, unstable };
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
};
