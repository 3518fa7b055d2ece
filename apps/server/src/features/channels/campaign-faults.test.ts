import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { newId } from '../../platform/ids';
import { ContinueLater } from '../../platform/jobs';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { openTestDeps } from '../../testing/harness';
import { startTwilioStub, TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, type TwilioStub } from '../../testing/twilio-stub';
import { seedAgent } from '../agents/seed';
import { createSession, SESSION_COOKIE } from '../auth/session';
import { dispatchCampaign } from './dispatch';
import { campaignRecipients, campaigns, channelMessages, channelSandboxLog, contacts } from './schema';

/**
 * A run that stops between the provider call and storing its outcome (a killed process), and what
 * the next run does about it. No job workers run here: each run is called directly, so the test
 * decides where the first one stops.
 */
let opened: Awaited<ReturnType<typeof openTestDeps>>;
let app: FastifyInstance;
let stub: TwilioStub;
let cookie: string;
let subaccountId: string;
const connections: Record<'twilio' | 'sandbox', string> = { twilio: '', sandbox: '' };

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

let phoneSerial = 0;
/** Contacts with a tag of their own, and their numbers. */
const seedContacts = async (tag: string, count: number) => {
  const phones = Array.from({ length: count }, () => `+1415600${String(1000 + phoneSerial++)}`);
  await opened.deps.db
    .insert(contacts)
    .values(phones.map((phone) => ({ id: newId('contact'), subaccountId, phone, tags: [tag] })));
  return phones;
};

/** A campaign to the tag's contacts, sending, with no dispatch job (each run is called by the test). */
const sendingCampaign = async (transport: 'twilio' | 'sandbox', tag: string) => {
  const created = await api('POST', `/api/channels/${connections[transport]}/campaigns`, {
    name: `Faults ${tag}`,
    audience: { type: 'tags', tags: [tag] },
    message: 'Spring sale for {{phone}}: 20% off this week.',
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().campaignId as string;
  await opened.deps.db.update(campaigns).set({ status: 'sending', startedAt: new Date() }).where(eq(campaigns.id, id));
  return id;
};

/** Runs a dispatch that is killed right after its `n`th provider call, before any outcome is stored. */
const runKilledAfter = async (campaignId: string, n: number) => {
  let calls = 0;
  await expect(
    dispatchCampaign(opened.deps, campaignId, {
      runId: 'job_killed#1',
      afterSend: () => {
        calls += 1;
        if (calls === n) throw new Error('the process was killed');
      },
    }),
  ).rejects.toThrow('the process was killed');
};

/** As if the killed run stopped a while ago: its sends in doubt are due for reconciliation. */
const timePasses = (campaignId: string) =>
  opened.deps.db.execute(
    sql`UPDATE campaign_recipients SET next_attempt_at = now() - interval '1 second' WHERE campaign_id = ${campaignId}`,
  );

/** What the provider holds per number: Twilio's accepted messages, or the sandbox's own log. */
const providerCounts = async (transport: 'twilio' | 'sandbox', phones: string[]) => {
  const counts = new Map(phones.map((phone) => [phone, 0]));
  if (transport === 'twilio') {
    for (const message of stub.messages) {
      const to = String(message.params.To);
      if (counts.has(to)) counts.set(to, (counts.get(to) ?? 0) + 1);
    }
  } else {
    const rows = await opened.deps.db
      .select({ phone: channelSandboxLog.contactPhone })
      .from(channelSandboxLog)
      .where(inArray(channelSandboxLog.contactPhone, phones));
    for (const row of rows) counts.set(row.phone, (counts.get(row.phone) ?? 0) + 1);
  }
  return [...counts.values()];
};

const recipientStates = async (campaignId: string) =>
  opened.deps.db
    .select({ status: campaignRecipients.status, phone: campaignRecipients.phone, sid: channelMessages.providerSid })
    .from(campaignRecipients)
    .leftJoin(channelMessages, eq(channelMessages.id, campaignRecipients.messageId))
    .where(eq(campaignRecipients.campaignId, campaignId));

beforeAll(async () => {
  stub = await startTwilioStub();
  opened = await openTestDeps({ TWILIO_API_URL: stub.url, PUBLIC_URL: 'https://switchboard.example.com' });
  ({ app } = await buildApp(opened.deps));
  await app.ready();
  const agency = await seedAgency(opened.deps.db, DEMO_AGENCY);
  subaccountId = agency.subaccountIds[0] as string;
  const agent = await seedAgent(opened.deps.db, { accountId: agency.accountId, subaccountId, name: 'Faults' });
  const session = await createSession(opened.deps.db, opened.deps.env, agency.ownerId);
  cookie = `${SESSION_COOKIE}=${session.token}`;
  const twilio = await api('POST', '/api/channels', {
    subaccountId,
    type: 'sms',
    buildId: agent.id,
    twilio: { accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN },
    sender: { phoneNumber: '+15557654321' },
    sendRatePerSecond: 0,
  });
  expect(twilio.statusCode, twilio.body).toBe(201);
  connections.twilio = twilio.json().connectionId;
  const sandbox = await api('POST', '/api/channels', { subaccountId, type: 'sms', buildId: agent.id });
  connections.sandbox = sandbox.json().connectionId;
});
afterAll(async () => {
  await app.close();
  await opened.close();
  await stub.close();
});

describe.each(['twilio', 'sandbox'] as const)(
  'a run killed between the provider call and its commit (%s)',
  (transport) => {
    it('marks the sends the provider has as sent with its id and sends only the others, once', async () => {
      const phones = await seedContacts(`crash-${transport}`, 20);
      const id = await sendingCampaign(transport, `crash-${transport}`);
      await runKilledAfter(id, 5);
      // Five messages reached the provider; none of the twenty outcomes was stored.
      expect((await providerCounts(transport, phones)).filter((n) => n === 1)).toHaveLength(5);
      expect((await recipientStates(id)).every((row) => row.status === 'sending')).toBe(true);

      await timePasses(id);
      const result = await dispatchCampaign(opened.deps, id, { runId: 'job_restarted#1' });
      expect(result).toMatchObject({ completed: true, sent: 15 });
      expect(await providerCounts(transport, phones)).toEqual(phones.map(() => 1));
      const states = await recipientStates(id);
      expect(states.map((row) => row.status).sort()).toEqual(
        phones.map(() => (transport === 'twilio' ? 'sent' : 'delivered')),
      );
      // Each recipient carries the provider's own id for its one message.
      if (transport === 'twilio') {
        const sidOf = new Map(stub.messages.map((message) => [String(message.params.To), message.sid]));
        for (const row of states) expect(row.sid).toBe(sidOf.get(row.phone));
        // Every send carried an idempotency key, never the same one twice.
        const keys = stub.messages.filter((m) => phones.includes(String(m.params.To))).map((m) => m.key);
        expect(keys.every(Boolean)).toBe(true);
        expect(new Set(keys).size).toBe(keys.length);
      } else {
        const logged = await opened.deps.db
          .select()
          .from(channelSandboxLog)
          .where(inArray(channelSandboxLog.contactPhone, phones));
        const sidOf = new Map(logged.map((row) => [row.contactPhone, row.providerSid]));
        for (const row of states) expect(row.sid).toBe(sidOf.get(row.phone));
      }
    });
  },
);

describe('sends in doubt the provider cannot be asked about', () => {
  it('stay unconfirmed, and "Retry unsent" sends only those the provider does not have', async () => {
    const phones = await seedContacts('unreachable', 10);
    const id = await sendingCampaign('twilio', 'unreachable');
    await runKilledAfter(id, 4);
    await timePasses(id);
    // Twilio's message list answers 503 to every try.
    stub.failList({ status: 503 }, { status: 503 }, { status: 503 });
    expect(await dispatchCampaign(opened.deps, id, { runId: 'job_restarted#1' })).toMatchObject({ completed: true });
    const report = (await api('GET', `/api/channels/${connections.twilio}/campaigns/${id}`)).json();
    expect(report.figures).toMatchObject({ total: 10, sent: 0, failed: 0, unconfirmed: 10 });
    expect((await providerCounts('twilio', phones)).sort()).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1]);

    const retried = await api('POST', `/api/channels/${connections.twilio}/campaigns/${id}/retry-unsent`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ status: 'sending', figures: { unconfirmed: 0 } });
    const [row] = await opened.deps.db.select().from(campaigns).where(eq(campaigns.id, id));
    const run = await dispatchCampaign(opened.deps, id, { runId: 'job_retry#1', round: row?.dispatchRound });
    expect(run).not.toBeInstanceOf(ContinueLater);
    expect(run).toMatchObject({ completed: true, sent: 6 });
    expect(await providerCounts('twilio', phones)).toEqual(phones.map(() => 1));
    const done = (await api('GET', `/api/channels/${connections.twilio}/campaigns/${id}`)).json();
    expect(done).toMatchObject({ status: 'completed', figures: { sent: 10, unconfirmed: 0, failed: 0 } });

    const again = await api('POST', `/api/channels/${connections.twilio}/campaigns/${id}/retry-unsent`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toContain('Nothing is left to retry');
    const unconfirmedLeft = await opened.deps.db
      .select()
      .from(campaignRecipients)
      .where(and(eq(campaignRecipients.campaignId, id), eq(campaignRecipients.status, 'unconfirmed')));
    expect(unconfirmedLeft).toHaveLength(0);
  });
});

describe('a run told to stop', () => {
  it('stops at its next send when its signal is aborted, gives the rest back unsent and hands the campaign back', async () => {
    const phones = await seedContacts('stopping', 12);
    const id = await sendingCampaign('sandbox', 'stopping');
    const stop = new AbortController();
    let calls = 0;
    const run = await dispatchCampaign(opened.deps, id, {
      runId: 'job_stopping#1',
      signal: stop.signal,
      afterSend: () => {
        calls += 1;
        if (calls === 2) stop.abort();
      },
    });
    expect(run).toBeInstanceOf(ContinueLater);
    const states = await recipientStates(id);
    expect(states.filter((row) => row.status === 'delivered')).toHaveLength(2);
    expect(states.filter((row) => row.status === 'queued')).toHaveLength(10);
    // The next run goes on from there, a bounded number of batches at a time.
    const next = await dispatchCampaign(opened.deps, id, { runId: 'job_stopping#1', maxBatches: 1 });
    expect(next).toBeInstanceOf(ContinueLater);
    expect(await dispatchCampaign(opened.deps, id, { runId: 'job_stopping#1' })).toMatchObject({ completed: true });
    expect(await providerCounts('sandbox', phones)).toEqual(phones.map(() => 1));
  });
});
