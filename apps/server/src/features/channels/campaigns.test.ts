import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../platform/jobs.schema';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { multipartForm } from '../../testing/multipart';
import { until } from '../../testing/until';
import { seedAgent } from '../agents/seed';
import { requeueStranded } from './campaign-watch';
import { type Channel, findChannel } from './connections';
import { dispatchCampaign, fillRecipients } from './dispatch';
import { campaignRecipients, campaigns, channelMessages, contacts } from './schema';

let t: TestApp;
let admin: string;
let outsider: string;
let subaccountId: string;
let connectionId: string;

const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, cookie = admin) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });

const importCsv = async (csv: string | Buffer, mapping: Record<string, unknown>) => {
  const form = multipartForm(
    { name: 'contacts.csv', type: 'text/csv', content: csv },
    { mapping: JSON.stringify(mapping) },
  );
  return t.app.inject({
    method: 'POST',
    url: `/api/channels/${subaccountId}/contacts/import`,
    headers: { cookie: admin, ...form.headers },
    payload: form.payload,
  });
};

const campaign = (body: Record<string, unknown>) =>
  api('POST', `/api/channels/${connectionId}/campaigns`, { name: 'Spring offer', audience: { type: 'all' }, ...body });

const waitForStatus = (campaignId: string, status: string) =>
  until(
    async () => (await api('GET', `/api/channels/${connectionId}/campaigns/${campaignId}`)).json(),
    (body) => body.status === status,
  );

beforeAll(async () => {
  t = await startTestApp({ JOB_POLL_MS: '20' });
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  const other = await seedAgency(t.deps.db, {
    accountName: 'Other',
    owner: { email: 'other@example.com', name: 'Other' },
    subaccounts: ['Other Co'],
  });
  subaccountId = agency.subaccountIds[0] as string;
  const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Solar Helper' });
  admin = await t.cookieFor(agency.ownerId);
  outsider = await t.cookieFor(other.ownerId);
  const created = await api('POST', '/api/channels', { subaccountId, type: 'sms', buildId: agent.id });
  expect(created.statusCode, created.body).toBe(201);
  expect(created.json()).toMatchObject({ transport: 'sandbox', sender: { phoneNumber: '+15550100000' } });
  connectionId = created.json().connectionId;
});
afterAll(() => t.close());

describe('contacts import', () => {
  it('previews the columns, then imports good rows and reports invalid and duplicate ones', async () => {
    const csv =
      'Full Name,Mobile,Segment,Company\nAda Lovelace,(415) 555-2671,vip,Analytical\nBad Row,12345,vip,X\nGrace Hopper,+1 415 555 2672,"vip,navy",Navy\nAgain,415-555-2671,vip,Dup\nAlan Turing,+447911123456,,Bletchley\n';
    const form = multipartForm({ name: 'contacts.csv', type: 'text/csv', content: csv }, {});
    const preview = await t.app.inject({
      method: 'POST',
      url: `/api/channels/${subaccountId}/contacts/import/preview`,
      headers: { cookie: admin, ...form.headers },
      payload: form.payload,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({
      columns: ['Full Name', 'Mobile', 'Segment', 'Company'],
      rowCount: 5,
      suggestedMapping: { phone: 'Mobile', name: 'Full Name', tags: 'Segment' },
    });
    const report = await importCsv(csv, {
      phone: 'Mobile',
      name: 'Full Name',
      tags: 'Segment',
      attributes: ['Company'],
      addTags: ['spring'],
    });
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json()).toMatchObject({
      imported: 3,
      updated: 0,
      rejectedCount: 2,
      rejected: [
        { line: 3, code: 'MESSAGE_INVALID_NUMBER', message: 'E.164 format required, for example +15555555555' },
        { line: 5, code: 'DUPLICATE' },
      ],
    });
    const list = (await api('GET', `/api/channels/${subaccountId}/contacts?tag=navy`)).json();
    expect(list.contacts).toHaveLength(1);
    expect(list.contacts[0]).toMatchObject({
      phone: '+14155552672',
      name: 'Grace Hopper',
      attributes: { company: 'Navy' },
    });
    expect(list.tags).toEqual(expect.arrayContaining(['vip', 'navy', 'spring']));
    // The same file again updates, adds nothing.
    expect((await importCsv(csv, { phone: 'Mobile' })).json()).toMatchObject({ imported: 0, updated: 3 });
  });

  it('refuses empty, binary, non-UTF-8 and unmapped files with clear errors, writing nothing', async () => {
    const before = (await t.deps.db.select({ n: count() }).from(contacts))[0]?.n;
    const cases: [string | Buffer, Record<string, unknown>, string][] = [
      ['', { phone: 'Mobile' }, 'The file is empty'],
      ['Mobile\n', { phone: 'Mobile' }, 'The file has no contacts'],
      [Buffer.from([0x4d, 0x6f, 0x62, 0x0a, 0xe9, 0x74, 0xe9, 0x0a]), { phone: 'Mob' }, 'not UTF-8'],
      ['Mobile\n+14155550000\n', { phone: 'Phone' }, 'The file has no column "Phone"'],
      ['Mobile\n+14155550000\n', {}, 'Pick the column with the phone numbers'],
    ];
    for (const [content, mapping, message] of cases) {
      const res = await importCsv(content, mapping);
      expect(res.statusCode, String(message)).toBe(422);
      expect(res.json().error.message).toContain(message);
    }
    expect((await t.deps.db.select({ n: count() }).from(contacts))[0]?.n).toBe(before);
    const foreign = await t.app.inject({
      url: `/api/channels/${subaccountId}/contacts`,
      headers: { cookie: outsider },
    });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('campaigns on the sandbox', () => {
  it('refuses unknown and missing variables with a clear error', async () => {
    const unknown = await campaign({ message: 'Hi {{nickname}}' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().error.message).toContain('{{nickname}} is not a contact field');
    await api('POST', `/api/channels/${subaccountId}/contacts`, { phone: '+15555550100', tags: ['noname'] });
    const draft = await campaign({ message: 'Hi {{first_name}}', audience: { type: 'tags', tags: ['noname'] } });
    expect(draft.statusCode).toBe(201);
    const start = await api('POST', `/api/channels/${connectionId}/campaigns/${draft.json().campaignId}/start`);
    expect(start.statusCode).toBe(422);
    expect(start.json().error.message).toContain('1 contact has no value for {{first_name}}');
    const [{ n } = { n: -1 }] = await t.deps.db
      .select({ n: count() })
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, draft.json().campaignId));
    expect(n).toBe(0);
  });

  it('sends once per contact, counts replies and STOPs, and the next campaign skips the opted-out number', async () => {
    const created = await campaign({
      message: 'Hi {{first_name}}, spring sale at {{company}}!',
      audience: { type: 'tags', tags: ['spring'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().campaignId;
    const [started, twice] = await Promise.all([
      api('POST', `/api/channels/${connectionId}/campaigns/${id}/start`),
      api('POST', `/api/channels/${connectionId}/campaigns/${id}/start`),
    ]);
    expect([started.statusCode, twice.statusCode].sort()).toEqual([200, 409]);
    const done = await waitForStatus(id, 'completed');
    expect(done.figures).toMatchObject({ total: 3, sent: 3, delivered: 3, failed: 0 });
    const messages = await t.deps.db.select().from(channelMessages).where(eq(channelMessages.campaignId, id));
    expect(messages).toHaveLength(3);
    expect(messages.map((m) => m.body).sort()).toContain('Hi Ada, spring sale at Analytical!');

    // A reply reaches the agent and counts; STOP opts out.
    const reply = await api('POST', `/api/channels/${connectionId}/sandbox/inbound`, {
      from: '+14155552671',
      body: 'Tell me more',
    });
    expect(reply.statusCode).toBe(202);
    await api('POST', `/api/channels/${connectionId}/sandbox/inbound`, { from: '+14155552672', body: 'STOP' });
    const figures = await until(
      async () => (await api('GET', `/api/channels/${connectionId}/campaigns/${id}`)).json().figures,
      (f) => f.replied === 1 && f.optedOut === 1,
    );
    expect(figures).toMatchObject({ replied: 1, optedOut: 1 });
    const answered = await until(
      () => api('GET', `/api/channels/${connectionId}/messages?phone=%2B14155552671`).then((r) => r.json().messages),
      (list: { direction: string; campaignId: string | null }[]) =>
        list.some((m) => m.direction === 'outbound' && m.campaignId === null),
    );
    expect(
      answered.some(
        (m: { direction: string; campaignId: string | null }) => m.direction === 'outbound' && !m.campaignId,
      ),
    ).toBe(true);
    const stopped = await until(
      () => api('GET', `/api/channels/${connectionId}/messages?phone=%2B14155552672`).then((r) => r.json().messages),
      (list: { body: string }[]) => list.some((m) => m.body.startsWith('You have been unsubscribed')),
    );
    expect(stopped.some((m: { body: string }) => m.body.startsWith('You have been unsubscribed'))).toBe(true);

    const again = await api('POST', `/api/channels/${connectionId}/campaigns/${id}/start`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('CAMPAIGN_ALREADY_COMPLETED');

    const next = await campaign({
      name: 'Summer',
      message: 'Summer news',
      audience: { type: 'tags', tags: ['spring'] },
    });
    await api('POST', `/api/channels/${connectionId}/campaigns/${next.json().campaignId}/start`);
    const second = await waitForStatus(next.json().campaignId, 'completed');
    expect(second.figures).toMatchObject({ total: 3, sent: 2, skipped: 1 });
    const toStopped = await t.deps.db
      .select()
      .from(channelMessages)
      .where(
        and(eq(channelMessages.campaignId, next.json().campaignId), eq(channelMessages.contactPhone, '+14155552672')),
      );
    expect(toStopped).toHaveLength(0);

    const csv = await api('GET', `/api/channels/${connectionId}/campaigns/${id}/export.csv`);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\n')[0]).toContain('phone,name,status,error_code');
    const timeline = (await api('GET', `/api/channels/${connectionId}/campaigns/${id}/timeline`)).json();
    expect(timeline.points.reduce((sum: number, p: { sent: number }) => sum + p.sent, 0)).toBe(3);
    const foreign = await api('GET', `/api/channels/${connectionId}/campaigns/${id}`, undefined, outsider);
    expect(foreign.statusCode).toBe(404);
  });

  it('resumes a campaign whose process stopped mid-send without sending anything twice', {
    timeout: 120_000,
  }, async () => {
    const phones = Array.from({ length: 40 }, (_, i) => `+1415555${String(3000 + i)}`);
    const csv = `phone\n${phones.join('\n')}\n`;
    expect((await importCsv(csv, { phone: 'phone', addTags: ['resume'] })).json().imported).toBe(40);
    const created = await campaign({
      name: 'Resume',
      message: 'Hello {{phone}}',
      audience: { type: 'tags', tags: ['resume'] },
    });
    const id = created.json().campaignId;
    // A run that died mid-send: the campaign is sending and no job of this process touches it (it
    // is set to sending directly, so no dispatch job races the hand-made state below). The dead
    // process's job is still marked running, as it would be until it is found stalled, so the
    // campaign watch does not take the campaign for a stranded one and queue a job of its own.
    await t.deps.db.execute(sql`UPDATE campaigns SET status = 'sending', started_at = now() WHERE id = ${id}`);
    const [row] = await t.deps.db.select().from(campaigns).where(eq(campaigns.id, id));
    await t.deps.db.insert(jobs).values({
      id: `job_dead_${id.slice(-8)}`,
      type: 'campaign:dispatch',
      queue: 'campaigns',
      status: 'running',
      payload: { campaignId: id, round: row?.dispatchRound ?? 0 },
      idempotencyKey: `campaign:${id}:${row?.dispatchRound ?? 0}`,
      heartbeatAt: new Date(),
      owner: 'job_dead#1',
    });
    await fillRecipients(
      t.deps,
      row as typeof campaigns.$inferSelect,
      (await findChannel(t.deps.db, connectionId)) as Channel,
    );
    // The dead run claimed 10 and stopped: 5 sent (a provider id), 5 not yet.
    const claimed = await t.deps.db.execute(sql`
      UPDATE campaign_recipients SET status = 'sending', attempts = 1, claimed_by = 'job_dead#1'
      WHERE id IN (SELECT id FROM campaign_recipients WHERE campaign_id = ${id} AND status = 'queued' ORDER BY id LIMIT 10)
      RETURNING id, contact_id, phone`);
    const rows = (claimed as unknown as { rows: { id: string; contact_id: string; phone: string }[] }).rows;
    for (const [i, row] of rows.entries()) {
      const messageId = `cms_${row.id.slice(4)}`;
      await t.deps.db.insert(channelMessages).values({
        id: messageId,
        subaccountId,
        connectionId,
        direction: 'outbound',
        contactPhone: row.phone,
        body: `Hello ${row.phone}`,
        status: 'sending',
        campaignId: id,
        idempotencyKey: `campaign:${id}:${row.contact_id}`,
        transport: 'sandbox',
        providerSid: i < 5 ? `SBXdead${i}` : null,
      });
      await t.deps.db.update(campaignRecipients).set({ messageId }).where(eq(campaignRecipients.id, row.id));
    }
    // The campaign watch, whenever it runs meanwhile, leaves it to the job marked running.
    expect(await requeueStranded(t.deps)).toBe(0);
    // The restarted worker resumes it.
    expect(await dispatchCampaign(t.deps, id, { runId: 'job_new#1' })).toMatchObject({ completed: true, sent: 35 });
    const done = (await api('GET', `/api/channels/${connectionId}/campaigns/${id}`)).json();
    expect(done.figures).toMatchObject({ total: 40, sent: 40, failed: 0 });
    const perContact = await t.deps.db.execute(sql`
      SELECT contact_phone, count(*)::int AS n FROM channel_messages WHERE campaign_id = ${id} GROUP BY contact_phone`);
    const counts = (perContact as unknown as { rows: { n: number }[] }).rows;
    expect(counts).toHaveLength(40);
    expect(counts.every((row) => row.n === 1)).toBe(true);
    const [{ n } = { n: -1 }] = await t.deps.db
      .select({ n: count() })
      .from(channelMessages)
      .where(and(eq(channelMessages.campaignId, id), sql`provider_sid IS NULL`));
    expect(n).toBe(0);
  });
});
