import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callHttpTool } from '../../features/agents/tools';
import { runModel } from '../../features/llm/gateway';
import { providerKeys } from '../../features/providers/schema';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { createOutboundFetch, isAllowedAddress, outboundPolicy, policyOf, safeFetch, vetUrl } from '.';

/** A local server that counts the requests reaching it and answers like a model list. */
const startCountingServer = async () => {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: [{ id: 'local-model' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { seen, port, close: () => new Promise((resolve) => server.close(resolve)) };
};

const LOOPBACK_SPELLINGS = [
  'http://127.0.0.1:PORT/v1',
  'http://localhost:PORT/v1',
  'http://2130706433:PORT/v1',
  'http://0x7f000001:PORT/v1',
  'http://0177.0.0.1:PORT/v1',
  'http://127.1:PORT/v1',
  'http://[::1]:PORT/v1',
  'http://[::ffff:127.0.0.1]:PORT/v1',
  'http://0.0.0.0:PORT/v1',
  // IPv6 that carries 127.0.0.1: IPv4-compatible (the URL parser writes it [::7f00:1]), NAT64,
  // IPv4-translated and 6to4.
  'http://[::127.0.0.1]:PORT/v1',
  'http://[::7f00:1]:PORT/v1',
  'http://[64:ff9b::7f00:1]:PORT/v1',
  'http://[::ffff:0:7f00:1]:PORT/v1',
  'http://[2002:7f00:1::]:PORT/v1',
];
const PRIVATE_URLS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://10.0.0.5/v1',
  'http://172.16.3.4/v1',
  'http://192.168.1.10/v1',
  'http://100.64.0.1/v1',
  'http://[fd00::1]/v1',
  'http://[fe80::1]/v1',
  'http://[::a9fe:a9fe]/latest/meta-data/',
  'http://[64:ff9b::a00:5]/v1',
  'http://[2002:c0a8:10a::1]/v1',
];

describe('the outbound policy', () => {
  const none = outboundPolicy([]);

  it('refuses every spelling of loopback, link-local and private literals', () => {
    for (const raw of [...LOOPBACK_SPELLINGS.map((url) => url.replace('PORT', '80')), ...PRIVATE_URLS]) {
      if (raw.includes('localhost')) continue; // a name: judged by its DNS answers
      expect(() => vetUrl(raw, none, { field: 'baseUrl' }), raw).toThrow(/not public/);
    }
  });

  it('judges an IPv6 address that carries an IPv4 one as that IPv4', () => {
    expect(isAllowedAddress(none, '::7f00:1')).toBe(false);
    expect(isAllowedAddress(none, '::a00:5')).toBe(false);
    expect(isAllowedAddress(none, '64:ff9b::a9fe:a9fe')).toBe(false);
    expect(isAllowedAddress(none, '2002:a00:5::1')).toBe(false);
    // A public IPv4 behind NAT64 or 6to4 is public; `::` and `::1` stay themselves.
    expect(isAllowedAddress(none, '64:ff9b::808:808')).toBe(true);
    expect(isAllowedAddress(none, '2002:808:808::1')).toBe(true);
    expect(isAllowedAddress(none, '::')).toBe(false);
    expect(isAllowedAddress(none, '::1')).toBe(false);
    const listed = outboundPolicy(['10.1.0.0/16']);
    expect(isAllowedAddress(listed, '::a01:203')).toBe(true);
    expect(isAllowedAddress(listed, '64:ff9b::a01:203')).toBe(true);
    expect(isAllowedAddress(listed, '::a02:1')).toBe(false);
  });

  it('refuses other schemes and credentials in the URL', () => {
    expect(() => vetUrl('file:///etc/passwd', none)).toThrow(/http/);
    expect(() => vetUrl('gopher://example.com/', none)).toThrow(/http/);
    expect(() => vetUrl('http://user:pw@example.com/', none)).toThrow(/user name/);
  });

  it('lets through exactly what PRIVATE_URL_ALLOWLIST lists', () => {
    const policy = outboundPolicy(['10.1.0.0/16', 'ollama.internal', 'localhost:11434', '::1']);
    expect(isAllowedAddress(policy, '10.1.2.3')).toBe(true);
    expect(isAllowedAddress(policy, '::ffff:10.1.2.3')).toBe(true);
    expect(isAllowedAddress(policy, '10.2.0.1')).toBe(false);
    expect(isAllowedAddress(policy, '::1')).toBe(true);
    expect(isAllowedAddress(policy, '127.0.0.1')).toBe(false);
    expect(isAllowedAddress(policy, '93.184.216.34')).toBe(true);
    expect(vetUrl('http://ollama.internal:11434/v1', policy).hostname).toBe('ollama.internal');
    expect(vetUrl('http://localhost:11434/v1', policy).port).toBe('11434');
    expect(() => outboundPolicy(['10.0.0.0/99'])).toThrow(/PRIVATE_URL_ALLOWLIST/);
  });
});

describe('user-given URLs never reach private networks', () => {
  let t: TestApp;
  let target: Awaited<ReturnType<typeof startCountingServer>>;
  let subaccountId: string;
  let accountId: string;
  let cookie: string;

  beforeAll(async () => {
    target = await startCountingServer();
    t = await startTestApp();
    const agency = await seedAgency(t.deps.db, {
      accountName: 'SSRF Agency',
      owner: { email: 'owner@ssrf.test', name: 'Owner' },
      subaccounts: ['Main'],
    });
    subaccountId = agency.subaccountIds[0] ?? '';
    accountId = agency.accountId;
    cookie = await t.cookieFor(agency.ownerId);
  });
  afterAll(async () => {
    await t.close();
    await target.close();
  });

  const saveCompatible = (baseUrl: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/connect/${subaccountId}/providers/compatible`,
      headers: { cookie },
      payload: { baseUrl },
    });

  it('refuses a provider base URL on loopback in any spelling, link-local or private, with a 422 naming baseUrl', async () => {
    for (const raw of [...LOOPBACK_SPELLINGS.map((url) => url.replace('PORT', String(target.port))), ...PRIVATE_URLS]) {
      const res = await saveCompatible(raw);
      expect(res.statusCode, raw).toBe(422);
      expect(res.json().error, raw).toMatchObject({ code: 'VALIDATION_ERROR', field: 'baseUrl' });
    }
    expect(target.seen).toEqual([]);
    expect(await t.deps.db.select().from(providerKeys)).toHaveLength(0);
  });

  it('refuses later model calls to a stored base URL that now points inside the network', async () => {
    // As if the name had resolved to a public address on save and to loopback since (DNS rebinding).
    await t.deps.db.insert(providerKeys).values({
      id: 'pvk_rebound',
      accountId,
      provider: 'compatible',
      encryptedKey: '',
      keyTail: '',
      baseUrl: `http://localhost:${target.port}/v1`,
      models: ['local-model'],
    });
    await expect(
      runModel(t.deps, {
        accountId,
        choice: { provider: 'compatible', model: 'local-model' },
        messages: [{ role: 'user', content: 'hello' }],
        source: 'test',
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', field: 'baseUrl', status: 422 });
    expect(target.seen).toEqual([]);
  });

  it('refuses agent HTTP tools and website checks that point inside the network', async () => {
    const toolRow = {
      id: 'tool_x',
      name: 'metadata',
      description: '',
      method: 'GET' as const,
      url: 'http://169.254.169.254/latest/meta-data/',
      headers: {},
      inputSchema: { type: 'object' },
      fixedValues: {},
    };
    await expect(callHttpTool(t.deps, toolRow as never, {})).rejects.toMatchObject({ field: 'url' });
    const local = { ...toolRow, url: `http://localhost:${target.port}/admin` };
    await expect(callHttpTool(t.deps, local as never, {})).rejects.toMatchObject({ field: 'url' });
    await expect(safeFetch(`http://127.0.0.1:${target.port}/`, policyOf(t.deps.env))).rejects.toMatchObject({
      field: 'url',
    });
    const check = await t.app.inject({
      method: 'POST',
      url: '/api/check-embeddable',
      headers: { cookie },
      payload: { url: 'http://[::ffff:127.0.0.1]/' },
    });
    expect(check.statusCode).toBe(422);
    expect(target.seen).toEqual([]);
  });

  it('checks every redirect hop: a public page cannot send the fetch to loopback', async () => {
    const redirector = http.createServer((_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const port = (redirector.address() as AddressInfo).port;
    const allowRedirector = outboundPolicy([`127.0.0.1:${port}`]);
    await expect(safeFetch(`http://127.0.0.1:${port}/`, allowRedirector)).rejects.toMatchObject({ field: 'url' });
    redirector.close();
  });

  it('reaches a private host once PRIVATE_URL_ALLOWLIST lists it (a self-hosted Ollama)', async () => {
    const allowed = await startTestApp({ PRIVATE_URL_ALLOWLIST: `localhost:${target.port}` });
    try {
      const agency = await seedAgency(allowed.deps.db, {
        accountName: 'Ollama Agency',
        owner: { email: 'owner@ollama.test', name: 'Owner' },
        subaccounts: ['Main'],
      });
      const res = await allowed.app.inject({
        method: 'PUT',
        url: `/api/connect/${agency.subaccountIds[0]}/providers/compatible`,
        headers: { cookie: await allowed.cookieFor(agency.ownerId) },
        payload: { baseUrl: `http://localhost:${target.port}/v1` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ configured: true, models: ['local-model'] });
      expect(target.seen).toEqual(['GET /v1/models']);
      // Another port of the same host stays closed.
      const other = await allowed.app.inject({
        method: 'PUT',
        url: `/api/connect/${agency.subaccountIds[0]}/providers/compatible`,
        headers: { cookie: await allowed.cookieFor(agency.ownerId) },
        payload: { baseUrl: `http://localhost:${target.port + 1}/v1` },
      });
      expect(other.statusCode).toBe(422);
    } finally {
      await allowed.close();
    }
  });

  it('pins the connection to the vetted address: the fetch itself resolves and checks', async () => {
    const guarded = createOutboundFetch({ policy: outboundPolicy([]), field: 'baseUrl' });
    await expect(guarded(`http://localhost:${target.port}/v1/models`)).rejects.toMatchObject({ field: 'baseUrl' });
    await expect(
      guarded(new Request(`http://127.0.0.1:${target.port}/v1/models`, { method: 'POST', body: new Blob(['x']) })),
    ).rejects.toMatchObject({ field: 'baseUrl' });
    expect(target.seen).toEqual(['GET /v1/models']);
  });
});

describe('the outbound fetch', () => {
  /** A server that sends `parts` as separate writes 30 ms apart (an event stream) or one long body. */
  const startSender = async (parts: string[], contentType: string) => {
    const closed: string[] = [];
    const server = http.createServer((_req, res) => {
      res.on('close', () => closed.push(res.writableFinished ? 'finished' : 'cut'));
      res.writeHead(200, { 'content-type': contentType, 'x-one': 'a' });
      let index = 0;
      const next = () => {
        if (res.destroyed) return;
        if (index === parts.length) return res.end();
        res.write(parts[index]);
        index += 1;
        setTimeout(next, 30);
      };
      next();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    return {
      url,
      closed,
      close: () => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(resolve));
      },
    };
  };

  it('sends again, once, on a new connection a request whose kept-alive connection the server had closed', async () => {
    // Answers the first request of each connection and keeps it open; a second request on the
    // same connection finds it closed without an answer, as a server's idle timeout leaves it.
    const sockets: net.Socket[] = [];
    const server = net.createServer((socket) => {
      sockets.push(socket);
      let answered = false;
      socket.on('data', () => {
        if (answered) return socket.destroy();
        answered = true;
        socket.write(
          'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok',
        );
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const fetcher = createOutboundFetch({ policy: null });
      expect(await (await fetcher(url, { method: 'POST', body: '{}' })).text()).toBe('ok');
      expect(await (await fetcher(url, { method: 'POST', body: '{}' })).text()).toBe('ok');
      expect(sockets).toHaveLength(2);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('passes an event stream on as it arrives, and a reader that stops closes the connection', async () => {
    const sender = await startSender(['data: one\n\n', 'data: two\n\n', 'data: three\n\n'], 'text/event-stream');
    try {
      const response = await createOutboundFetch({ policy: null })(sender.url);
      expect(response.headers.get('x-one')).toBe('a');
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
      await reader.cancel();
      for (let i = 0; i < 50 && !sender.closed.length; i += 1) await new Promise((r) => setTimeout(r, 20));
      expect(sender.closed).toEqual(['cut']);

      const whole = await createOutboundFetch({ policy: null })(sender.url);
      expect(await whole.text()).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
    } finally {
      await sender.close();
    }
  });

  it('keeps the first maxResponseBytes of a longer answer, and only the headers with 0', async () => {
    const sender = await startSender(['a'.repeat(1000), 'b'.repeat(1000)], 'text/plain');
    try {
      const capped = await createOutboundFetch({ policy: null, maxResponseBytes: 1500 })(sender.url);
      expect(await capped.text()).toBe(`${'a'.repeat(1000)}${'b'.repeat(500)}`);
      const headersOnly = await createOutboundFetch({ policy: null, maxResponseBytes: 0 })(sender.url);
      expect(headersOnly.status).toBe(200);
      expect(await headersOnly.text()).toBe('');
      const whole = await createOutboundFetch({ policy: null })(sender.url, { method: 'POST', body: 'x' });
      expect((await whole.text()).length).toBe(2000);
    } finally {
      await sender.close();
    }
  });
});
