/**
 * Running out gracefully, as a visitor sees it: with no credits left, the website widget, the demo
 * and the SMS channel answer 'This assistant is unavailable right now' and never billing words,
 * while the agency reads the real reason.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../platform/jobs.schema';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { until } from '../../testing/until';
import { channelMessages } from '../channels/schema';
import { VISITOR_UNAVAILABLE } from './channel-gate';
import { debitUsages } from './ledger';

let t: TestApp;

const BILLING_WORDS = /credit|billing|plan|upgrade|subscription|payment|insufficient/i;

beforeAll(async () => {
  t = await startTestApp({ FREE_PLAN_CREDITS: '100', JOB_POLL_MS: '20' });
});
afterAll(async () => {
  await t?.close();
});

describe('visitors never read billing words', () => {
  it('at zero credits the widget, the demo and SMS answer the neutral sentence; the agency sees why', async () => {
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Empty',
      owner: { email: 'empty@example.test', name: 'Owner' },
      subaccounts: ['Main'],
    });
    const subaccountId = agency.subaccountIds[0] as string;
    const cookie = await t.cookieFor(agency.ownerId);
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const response = await t.app.inject({
        method,
        url,
        headers: { cookie, 'x-subaccount-id': subaccountId },
        ...(payload ? { payload } : {}),
      });
      return { status: response.statusCode, body: response.json() };
    };
    const agent = await call('POST', '/api/agents', { name: 'Front desk' });
    const widget = await call('POST', '/api/connections', {
      subaccountId,
      buildId: agent.body.id,
      type: 'website-widget',
    });
    const demo = await call('POST', '/api/demos', { name: 'Demo', type: 'standard', buildId: agent.body.id });
    const sms = await call('POST', '/api/channels', { subaccountId, type: 'sms', buildId: agent.body.id });
    expect(sms.status).toBe(201);
    const connectionId = sms.body.connectionId as string;

    await debitUsages(t.deps, [
      {
        accountId: agency.accountId,
        subaccountId,
        model: 'offline-mini',
        inputTokens: 1,
        outputTokens: 1,
        credits: 100,
        idempotencyKey: 'empty-all',
        source: 'test',
      },
    ]);

    const widgetAnswer = await t.app.inject({
      method: 'POST',
      url: `/api/widget/${widget.body.widgetId}/chat`,
      payload: { contactIdentifier: 'visitor_1_abc', message: 'Hello' },
    });
    const streamed = await t.app.inject({
      method: 'POST',
      url: `/api/widget/${widget.body.widgetId}/chat`,
      headers: { accept: 'text/event-stream' },
      payload: { contactIdentifier: 'visitor_1_abc', message: 'Hello' },
    });
    const demoAnswer = await t.app.inject({
      method: 'POST',
      url: '/api/demo-chat',
      payload: { demoId: demo.body.demoId ?? demo.body.id, message: 'Hello' },
    });
    for (const answer of [widgetAnswer, demoAnswer]) {
      expect(answer.statusCode).toBe(402);
      expect(answer.json().error.message).toBe(VISITOR_UNAVAILABLE);
      expect(answer.json().error.code).toBe('FORBIDDEN');
    }
    expect(streamed.body).toContain(VISITOR_UNAVAILABLE);
    for (const body of [widgetAnswer.body, demoAnswer.body, streamed.body]) {
      const { message } = (
        JSON.parse(body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1)) as {
          error: { message: string };
        }
      ).error;
      expect(message).not.toMatch(BILLING_WORDS);
    }

    // SMS: the contact is told the same sentence, once an hour at most.
    const phone = '+14155550199';
    for (const body of ['Hello?', 'Anyone there?']) {
      expect((await call('POST', `/api/channels/${connectionId}/sandbox/inbound`, { from: phone, body })).status).toBe(
        202,
      );
    }
    const outbound = () =>
      t.deps.db
        .select({ body: channelMessages.body })
        .from(channelMessages)
        .where(
          and(
            eq(channelMessages.connectionId, connectionId),
            eq(channelMessages.contactPhone, phone),
            eq(channelMessages.direction, 'outbound'),
          ),
        );
    const inboundJobs = () =>
      t.deps.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.type, 'channel:inbound'));
    const done = await until(
      inboundJobs,
      (rows) => rows.length === 2 && rows.every((row) => row.status === 'succeeded'),
    );
    expect(done.map((row) => row.status)).toEqual(['succeeded', 'succeeded']);
    const sent = await until(outbound, (rows) => rows.length >= 1);
    expect((await outbound()).map((row) => row.body)).toEqual([VISITOR_UNAVAILABLE]);
    expect(sent[0]?.body).not.toMatch(BILLING_WORDS);

    // The agency reads the real reason.
    const own = await call('POST', `/api/agents/${agent.body.id}/chat`, { message: 'Hello' });
    expect(own.status).toBe(402);
    expect(own.body.error.code).toBe('BILLING_INSUFFICIENT_CREDITS');
  });
});
