import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { newId } from '../../platform/ids';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { openTestDeps } from '../../testing/harness';
import { startTwilioStub, TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, type TwilioStub } from '../../testing/twilio-stub';
import { seedAgent } from '../agents/seed';
import { createSession, SESSION_COOKIE } from '../auth/session';
import { campaignStepSends } from './campaign-steps.schema';
import { dispatchCampaign } from './dispatch';
import { campaigns, channelSandboxLog, contacts } from './schema';

/**
 * A sequence's later steps when a run stops between the provider call and storing its outcome (a
 * killed process), and when the same run happens twice at once. No job workers run here: each run
 * is called directly, so the test decides where the first one stops.
 */
let opened: Awaited<ReturnType<typeof openTestDeps>>;
let app: FastifyInstance;
let stub: TwilioStub;
let cookie: string;
let subaccountId: string;
const connections: Record<'twilio' | 'sandbox', string> = { twilio: '', sandbox: '' };

const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
  app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

let phoneSerial = 0;
const seedContacts = async (tag: string, count: number) => {
  const phones = Array.from({ length: count }, () => `+1415610${String(1000 + phoneSerial++)}`);
  await opened.deps.db
    .insert(contacts)
    .values(phones.map((phone) => ({ id: newId('contact'), subaccountId, phone, tags: [tag] })));
  return phones;
};

/** A two-step sequence to the tag's contacts, sending, whose step 1 has gone out and whose step 2 is due now. */
const stepTwoDue = async (transport: 'twilio' | 'sandbox', tag: string) => {
  const created = await api('POST', `/api/channels/${connections[transport]}/campaigns`, {
    name: `Steps ${tag}`,
    audience: { type: 'tags', tags: [tag] },
    message: 'Spring sale for {{phone}}.',
    quietHours: null,
    steps: [{ delay: { amount: 1, unit: 'days' }, condition: 'all', message: 'Last day of the sale, {{phone}}.' }],
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().campaignId as string;
  await opened.deps.db.update(campaigns).set({ status: 'sending', startedAt: new Date() }).where(eq(campaigns.id, id));
  expect(await dispatchCampaign(opened.deps, id, { runId: 'job_first#1' })).toMatchObject({
    waiting: expect.any(Number),
  });
  await opened.deps.db.execute(
    sql`UPDATE campaign_step_sends SET next_attempt_at = now() - interval '1 second' WHERE campaign_id = ${id}`,
  );
  return id;
};

/** As if the killed run stopped a while ago: its sends in doubt are due for reconciliation. */
const timePasses = (campaignId: string) =>
  opened.deps.db.execute(
    sql`UPDATE campaign_step_sends SET next_attempt_at = now() - interval '1 second' WHERE campaign_id = ${campaignId}`,
  );

/** Messages the provider holds per number: Twilio's accepted messages, or the sandbox's own log. */
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

const stepStates = async (campaignId: string) =>
  (
    await opened.deps.db
      .select({ status: campaignStepSends.status })
      .from(campaignStepSends)
      .where(eq(campaignStepSends.campaignId, campaignId))
  ).map((row) => row.status);

beforeAll(async () => {
  stub = await startTwilioStub();
  opened = await openTestDeps({ TWILIO_API_URL: stub.url, PUBLIC_URL: 'https://switchboard.example.com' });
  ({ app } = await buildApp(opened.deps));
  await app.ready();
  const agency = await seedAgency(opened.deps.db, DEMO_AGENCY);
  subaccountId = agency.subaccountIds[0] as string;
  const agent = await seedAgent(opened.deps.db, { accountId: agency.accountId, subaccountId, name: 'Steps' });
  const session = await createSession(opened.deps.db, opened.deps.env, agency.ownerId);
  cookie = `${SESSION_COOKIE}=${session.token}`;
  const twilio = await api('POST', '/api/channels', {
    subaccountId,
    type: 'sms',
    buildId: agent.id,
    twilio: { accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN },
    sender: { phoneNumber: '+15557654322' },
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

describe.each(['twilio', 'sandbox'] as const)('a step run killed between the send and its commit (%s)', (transport) => {
  it('marks the steps the provider has as sent and sends only the others, once', async () => {
    const phones = await seedContacts(`steps-crash-${transport}`, 8);
    const id = await stepTwoDue(transport, `steps-crash-${transport}`);
    expect(await providerCounts(transport, phones)).toEqual(phones.map(() => 1));
    let calls = 0;
    await expect(
      dispatchCampaign(opened.deps, id, {
        runId: 'job_killed#1',
        afterSend: () => {
          calls += 1;
          if (calls === 3) throw new Error('the process was killed');
        },
      }),
    ).rejects.toThrow('the process was killed');
    // Three step-2 messages reached the provider; no outcome was stored.
    expect((await providerCounts(transport, phones)).filter((n) => n === 2)).toHaveLength(3);
    expect((await stepStates(id)).every((status) => status === 'sending')).toBe(true);

    await timePasses(id);
    expect(await dispatchCampaign(opened.deps, id, { runId: 'job_restarted#1' })).toMatchObject({
      completed: true,
      sent: 5,
    });
    expect(await providerCounts(transport, phones)).toEqual(phones.map(() => 2));
    expect(new Set(await stepStates(id))).toEqual(new Set([transport === 'twilio' ? 'sent' : 'delivered']));
    const report = (await api('GET', `/api/channels/${connections[transport]}/campaigns/${id}`)).json();
    expect(report.sequence.steps[1].figures).toMatchObject({ sent: 8, waiting: 0, failed: 0 });
  });
});

describe('the same step run twice at once', () => {
  it('sends each step once: the second run finds the steps claimed', async () => {
    const phones = await seedContacts('steps-twice', 10);
    const id = await stepTwoDue('sandbox', 'steps-twice');
    const runs = await Promise.all([
      dispatchCampaign(opened.deps, id, { runId: 'job_twice#1' }),
      dispatchCampaign(opened.deps, id, { runId: 'job_twice#2' }),
    ]);
    expect(runs.some((run) => 'sent' in run)).toBe(true);
    // Whatever either left, a later run settles; nothing is ever sent twice.
    await timePasses(id);
    await dispatchCampaign(opened.deps, id, { runId: 'job_twice#3' });
    expect(await providerCounts('sandbox', phones)).toEqual(phones.map(() => 2));
    expect(new Set(await stepStates(id))).toEqual(new Set(['delivered']));
  });
});

describe('quiet hours at a later step', () => {
  it('holds a step due in the quiet hours until they end, in the contact’s time zone', async () => {
    const [phone] = await seedContacts('steps-quiet', 1);
    const id = await stepTwoDue('sandbox', 'steps-quiet');
    // Quiet hours around the contact's present hour: the step waits for their end.
    const hour = (new Date().getUTCHours() + 24) % 24;
    const pad = (n: number) => String(n).padStart(2, '0');
    await opened.deps.db
      .update(contacts)
      .set({ timeZone: 'UTC' })
      .where(eq(contacts.phone, phone as string));
    await opened.deps.db
      .update(campaigns)
      .set({ quietStart: `${pad(hour)}:00`, quietEnd: `${pad((hour + 2) % 24)}:00` })
      .where(eq(campaigns.id, id));
    const run = await dispatchCampaign(opened.deps, id, { runId: 'job_quiet#1' });
    expect(run).toMatchObject({ waiting: 1, sent: 0 });
    const [row] = await opened.deps.db.select().from(campaignStepSends).where(eq(campaignStepSends.campaignId, id));
    expect(row?.status).toBe('queued');
    expect(row?.attempts).toBe(0);
    const end = new Date();
    end.setUTCHours((hour + 2) % 24, 0, 0, 0);
    if (end.getTime() < Date.now()) end.setUTCDate(end.getUTCDate() + 1);
    expect(row?.nextAttemptAt.toISOString()).toBe(end.toISOString());
    expect(await providerCounts('sandbox', [phone as string])).toEqual([1]);
  });
});
