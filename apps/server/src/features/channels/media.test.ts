import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { multipartUpload } from '../../testing/multipart';
import { until } from '../../testing/until';
import { seedAgent } from '../agents/seed';
import { sniffMediaType } from './media';
import { channelMessages } from './schema';

const PUBLIC_URL = 'https://switchboard.example.com';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const PDF = Buffer.from('%PDF-1.7\n%fake but starts right\n');

let t: TestApp;
let admin: string;
let rival: string;
let subaccountId: string;
let connectionId: string;

const upload = (
  cookie: string,
  file: { name: string; type: string; content: Buffer | string } | null,
  id = connectionId,
) => {
  const body = multipartUpload(file);
  return t.app.inject({
    method: 'POST',
    url: `/api/channels/${id}/media`,
    headers: { cookie, ...body.headers },
    payload: body.payload,
  });
};

const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: admin }, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await startTestApp({ PUBLIC_URL, JOB_POLL_MS: '20' });
  const agency = await seedAgency(t.deps.db, {
    accountName: 'Media Agency',
    owner: { email: 'media-owner@example.test', name: 'Owner' },
    subaccounts: ['Clinic'],
  });
  subaccountId = agency.subaccountIds[0] as string;
  const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Clinic Helper' });
  admin = await t.cookieFor(agency.ownerId);
  const created = await api('POST', '/api/channels', { subaccountId, type: 'sms', buildId: agent.id });
  expect(created.statusCode, created.body).toBe(201);
  connectionId = created.json().connectionId;
  const other = await seedAgency(t.deps.db, {
    accountName: 'Rival Agency',
    owner: { email: 'media-rival@example.test', name: 'Rival' },
    subaccounts: ['Theirs'],
  });
  rival = await t.cookieFor(other.ownerId);
});
afterAll(async () => {
  await t?.close();
});

describe('media uploaded from the page', () => {
  it('stores an image or a PDF by its bytes and serves it at an unguessable public address', async () => {
    const image = await upload(admin, { name: 'offer.png', type: 'image/png', content: PNG });
    expect(image.statusCode, image.body).toBe(201);
    const stored = image.json();
    expect(stored).toMatchObject({ contentType: 'image/png', size: PNG.length, fileName: 'offer.png' });
    expect(stored.url).toMatch(new RegExp(`^${PUBLIC_URL}/api/media/med_[A-Za-z0-9_-]{32}$`));
    const served = await t.app.inject({ method: 'GET', url: new URL(stored.url).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/api/media/med_not-a-real-file-id-at-all' })).statusCode).toBe(
      404,
    );

    // The browser's word for the type does not count: the bytes do.
    const pdf = await upload(admin, { name: 'menu.bin', type: 'application/octet-stream', content: PDF });
    expect(pdf.json().contentType).toBe('application/pdf');
  });

  it('refuses other files, empty and oversized ones, and other tenants', async () => {
    for (const file of [
      { name: 'page.png', type: 'image/png', content: '<html><script>alert(1)</script></html>' },
      { name: 'empty.pdf', type: 'application/pdf', content: Buffer.alloc(0) },
      { name: 'huge.png', type: 'image/png', content: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]) },
    ]) {
      const refused = await upload(admin, file);
      expect(refused.statusCode, file.name).toBe(422);
      expect(refused.json().error).toMatchObject({ code: 'MEDIA_UPLOAD_FAILED', field: 'file' });
    }
    expect((await upload(admin, null)).json().error.code).toBe('MEDIA_UPLOAD_FAILED');
    expect((await upload(rival, { name: 'x.png', type: 'image/png', content: PNG })).statusCode).toBe(404);
  });

  it('attaches an uploaded file to a campaign and to a reply from the inbox', async () => {
    const { url } = (await upload(admin, { name: 'offer.png', type: 'image/png', content: PNG })).json();
    const campaign = await api('POST', `/api/channels/${connectionId}/campaigns`, {
      name: 'Spring offer',
      message: 'Our spring offer is attached.',
      audience: { type: 'all' },
      mediaUrl: url,
    });
    expect(campaign.statusCode, campaign.body).toBeLessThan(300);

    const phone = '+14155550123';
    const sent = await api('POST', `/api/channels/${connectionId}/sandbox/inbound`, { from: phone, body: 'Hello' });
    expect(sent.statusCode).toBe(202);
    const thread = await until(
      async () =>
        (
          await t.deps.db
            .select({ threadId: channelMessages.threadId })
            .from(channelMessages)
            .where(and(eq(channelMessages.connectionId, connectionId), eq(channelMessages.direction, 'inbound')))
        )[0]?.threadId ?? null,
      (id) => id !== null,
    );
    const reply = await api('POST', `/api/connections/${connectionId}/conversations/${thread}/messages`, {
      content: 'Here is our price list.',
      mediaUrls: [url],
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(JSON.stringify(reply.json().messages)).toContain(`[Attachment](${url})`);
    const outbound = await until(
      () =>
        t.deps.db
          .select({ body: channelMessages.body, mediaUrls: channelMessages.mediaUrls })
          .from(channelMessages)
          .where(
            and(eq(channelMessages.connectionId, connectionId), eq(channelMessages.body, 'Here is our price list.')),
          ),
      (rows) => rows.length === 1,
    );
    expect(outbound[0]?.mediaUrls).toEqual([url]);
    const missing = await api('POST', `/api/connections/${connectionId}/conversations/${thread}/messages`, {
      content: 'And this one',
      mediaUrls: [`${PUBLIC_URL}/api/media/med_${'x'.repeat(32)}`],
    });
    expect(missing.json().error).toMatchObject({ code: 'MEDIA_UPLOAD_FAILED', field: 'mediaUrls' });
  });

  it('knows files by their first bytes', () => {
    expect(sniffMediaType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffMediaType(Buffer.from('GIF89a....'))).toBe('image/gif');
    expect(sniffMediaType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffMediaType(Buffer.from('PK\x03\x04'))).toBeNull();
  });
});
