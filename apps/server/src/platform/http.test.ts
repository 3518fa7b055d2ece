import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { writeAtOnce } from './http';

/** What the socket holds back after each write, read inside the handler (the same tick as the writes). */
const socketAfterWrites = async (writeFirst: (response: http.ServerResponse, text: string) => void) => {
  const seen: { corked: number; waiting: number }[] = [];
  const server = http.createServer((_request, response) => {
    const socket = response.socket;
    if (!socket) throw new Error('no socket');
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    writeFirst(response, 'data: first\n\n');
    seen.push({ corked: socket.writableCorked, waiting: socket.writableLength });
    response.write('data: second\n\n');
    response.write('data: third\n\n');
    seen.push({ corked: socket.writableCorked, waiting: socket.writableLength });
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const body = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    return { seen, body };
  } finally {
    server.close();
  }
};

describe('writeAtOnce', () => {
  it('sends the first event before the tick ends, and leaves later writes grouped by Node', async () => {
    const plain = await socketAfterWrites((response, text) => response.write(text));
    // Node holds a plain write (and the headers) until the tick ends.
    expect(plain.seen[0]?.corked).toBe(1);
    expect(plain.seen[0]?.waiting).toBeGreaterThan(0);

    const atOnce = await socketAfterWrites(writeAtOnce);
    expect(atOnce.seen[0]).toEqual({ corked: 0, waiting: 0 });
    expect(atOnce.seen[1]?.corked).toBe(1);
    expect(atOnce.body).toBe('data: first\n\ndata: second\n\ndata: third\n\n');
  });
});
