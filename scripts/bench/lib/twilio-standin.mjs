/**
 * A local stand-in for the part of Twilio's Messages API a server sends SMS with, on loopback (the
 * server reaches it through TWILIO_API_URL). It checks Basic auth as Twilio does, accepts every
 * well-formed message (Twilio does not drop a repeated request: a second POST is a second SMS) and
 * keeps a log of each: by recipient, and by the request's idempotency key when one is sent.
 * Messages can be fetched and listed with Twilio's filters (To, From, DateSent, DateSent<,
 * DateSent>) and paging, so a server can reconcile sends in doubt. Not a benchmark itself.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';

export const STANDIN_ACCOUNT_SID = `AC${'c4'.repeat(16)}`;
export const STANDIN_AUTH_TOKEN = 'e'.repeat(32);

/** Request headers that may carry an idempotency key, as different clients name it. */
const KEY_HEADERS = ['idempotency-key', 'i-twilio-idempotency-token', 'x-idempotency-key'];

const rfc2822 = (ms) => new Date(ms).toUTCString().replace('GMT', '+0000');
const day = (ms) => new Date(ms).toISOString().slice(0, 10);

const readForm = async (req) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
};

const resource = (message) => ({
  sid: message.sid,
  account_sid: message.accountSid,
  to: message.to,
  from: message.from,
  messaging_service_sid: message.messagingServiceSid,
  body: message.body,
  status: 'sent',
  direction: 'outbound-api',
  num_segments: '1',
  num_media: '0',
  price: null,
  price_unit: 'USD',
  error_code: null,
  error_message: null,
  api_version: '2010-04-01',
  date_created: rfc2822(message.at),
  date_updated: rfc2822(message.at),
  date_sent: rfc2822(message.at),
  uri: `/2010-04-01/Accounts/${message.accountSid}/Messages/${message.sid}.json`,
  subresource_uris: { media: `/2010-04-01/Accounts/${message.accountSid}/Messages/${message.sid}/Media.json` },
});

/** Twilio's list filters: To, From, DateSent (that day), DateSent< and DateSent> (on or before / after). */
const matches = (message, query) => {
  const to = query.get('To');
  const from = query.get('From');
  const on = query.get('DateSent');
  const before = query.get('DateSent<');
  const after = query.get('DateSent>');
  if (to && message.to !== to) return false;
  if (from && message.from !== from) return false;
  if (on && day(message.at) !== on.slice(0, 10)) return false;
  if (before && message.at > Date.parse(before.length <= 10 ? `${before}T23:59:59.999Z` : before)) return false;
  if (after && message.at < Date.parse(after)) return false;
  return true;
};

/**
 * Starts the stand-in. `log` holds every accepted message in order (to, from, body, idempotency
 * key or null, time); `byTo` and `byKey` index it. `figures(expected)` compares the log with the
 * recipients a campaign should have reached.
 */
export const startTwilioStandin = async () => {
  const log = [];
  const byTo = new Map();
  const byKey = new Map();
  const bySid = new Map();
  let requests = 0;

  const server = http.createServer(async (req, res) => {
    requests += 1;
    const send = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://standin');
    const [user = '', pass = ''] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
      .toString()
      .split(':');
    if (user !== STANDIN_ACCOUNT_SID || pass !== STANDIN_AUTH_TOKEN) {
      req.resume();
      return send(401, { code: 20003, message: 'Authenticate', status: 401 });
    }
    const account = url.pathname.match(
      /^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})(\/Messages(?:\/(SM[0-9a-f]{32}))?)?\.json$/,
    );
    if (!account || account[1] !== STANDIN_ACCOUNT_SID) {
      req.resume();
      return send(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
    }
    const [, accountSid, messages, messageSid] = account;
    if (req.method === 'GET' && !messages)
      return send(200, { sid: accountSid, friendly_name: 'Stand-in account', status: 'active', type: 'Full' });
    if (req.method === 'GET' && messageSid) {
      const found = bySid.get(messageSid);
      return found ? send(200, resource(found)) : send(404, { code: 20404, message: 'Not found', status: 404 });
    }
    if (req.method === 'GET') {
      const pageSize = Math.min(1000, Math.max(1, Number(url.searchParams.get('PageSize') ?? 50)));
      const page = Math.max(0, Number(url.searchParams.get('Page') ?? 0));
      // Twilio lists the newest first.
      const all = log.filter((message) => matches(message, url.searchParams)).reverse();
      const slice = all.slice(page * pageSize, (page + 1) * pageSize);
      const next = new URLSearchParams(url.searchParams);
      next.set('Page', String(page + 1));
      next.set('PageSize', String(pageSize));
      return send(200, {
        messages: slice.map(resource),
        page,
        page_size: pageSize,
        start: page * pageSize,
        end: page * pageSize + Math.max(0, slice.length - 1),
        uri: `${url.pathname}?${url.searchParams}`,
        first_page_uri: `${url.pathname}?PageSize=${pageSize}&Page=0`,
        next_page_uri: (page + 1) * pageSize < all.length ? `${url.pathname}?${next}` : null,
        previous_page_uri: null,
      });
    }
    if (req.method !== 'POST') return send(405, { code: 20004, message: 'Method not allowed', status: 405 });
    const form = await readForm(req);
    const to = form.get('To') ?? '';
    if (!/^\+\d{8,15}$/.test(to))
      return send(400, { code: 21211, message: `The 'To' number ${to} is not a valid phone number.`, status: 400 });
    if (!form.get('Body') && !form.get('ContentSid') && !form.get('MediaUrl'))
      return send(400, { code: 21602, message: 'Message body is required.', status: 400 });
    const keyHeader = KEY_HEADERS.find((name) => req.headers[name]);
    const message = {
      sid: `SM${randomBytes(16).toString('hex')}`,
      accountSid,
      to,
      from: form.get('From'),
      messagingServiceSid: form.get('MessagingServiceSid'),
      body: form.get('Body') ?? '',
      key: keyHeader ? String(req.headers[keyHeader]) : null,
      at: Date.now(),
    };
    log.push(message);
    bySid.set(message.sid, message);
    byTo.set(to, (byTo.get(to) ?? 0) + 1);
    if (message.key) byKey.set(message.key, (byKey.get(message.key) ?? 0) + 1);
    send(201, { ...resource(message), status: 'queued', date_sent: null });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    log,
    byTo,
    byKey,
    requests: () => requests,
    /**
     * Against the recipients that should have been reached: lost (never received), duplicated
     * (received more than once), extra sends beyond the first, messages to numbers outside the
     * list, sends that carried an idempotency key, and keys seen more than once.
     */
    figures(expected) {
      const wanted = new Set(expected);
      let lost = 0;
      let duplicated = 0;
      let extra = 0;
      for (const to of wanted) {
        const n = byTo.get(to) ?? 0;
        if (n === 0) lost += 1;
        if (n > 1) {
          duplicated += 1;
          extra += n - 1;
        }
      }
      const strangers = log.filter((message) => !wanted.has(message.to)).length;
      const keyed = log.filter((message) => message.key).length;
      const repeatedKeys = [...byKey.values()].filter((n) => n > 1).length;
      return { accepted: log.length, lost, duplicated, extra, strangers, keyed, repeatedKeys };
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
};
