import { describe, expect, it } from 'vitest';
import { type ConnectionFacts, toRecord as recordOn } from './records';

/** On a server that runs the messaging sandbox (outside production). */
const toRecord = (facts: ConnectionFacts) => recordOn(facts, { sandboxOn: true });

const base: ConnectionFacts = {
  id: 'con_abc',
  subaccountId: 'sub_abc',
  type: 'sms',
  name: 'Solar SMS Agent',
  buildId: 'agt_1',
  agentName: 'Solar',
  deployedAt: null,
  deployedBuildId: null,
  needsRedeploy: false,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  pausedAt: null,
  account: {
    transport: 'twilio',
    verified_at: '2026-01-01T00:00:00Z',
    sender_phone: '+14155550100',
    messaging_service_sid: null,
  },
  reached: false,
  lastFailure: null,
  subaccountLocked: false,
};

describe('connection records', () => {
  it('keeps a Twilio agent pending until its webhook has been received', () => {
    const pending = toRecord(base);
    expect(pending?.status).toBe('pending_connection');
    expect(pending?.checklist.filter((item) => !item.done).map((item) => item.label)).toEqual(['Webhook received']);
    expect(toRecord({ ...base, reached: true })?.status).toBe('live');
  });

  it('turns refused Twilio credentials into TWILIO_AUTH_FAILED with Update Credentials', () => {
    const record = toRecord({ ...base, reached: true, lastFailure: { errorCode: '20003' } });
    expect(record).toMatchObject({ status: 'error', error: { code: 'TWILIO_AUTH_FAILED' } });
    expect(record?.error?.actions).toEqual(['Update Credentials']);
    // A failure of one recipient (opted out) is not the channel's.
    expect(toRecord({ ...base, reached: true, lastFailure: { errorCode: 'OPTED_OUT' } })?.status).toBe('live');
  });

  it('reads a channel’s own state: pending_connection with its app_slug, or an error code', () => {
    const instagram = {
      ...base,
      type: 'instagram',
      account: { transport: 'meta', status: 'pending_connection', app_slug: 'instagram' },
    };
    expect(toRecord(instagram)).toMatchObject({
      status: 'pending_connection',
      appSlug: 'instagram',
      setupPath: '/con_abc/link3',
    });
    const refused = toRecord({
      ...instagram,
      account: {
        transport: 'meta',
        status: 'error',
        status_code: 'WEBHOOK_VALIDATION_FAILED',
        status_message: 'Bad secret',
      },
    });
    expect(refused?.error).toEqual({
      code: 'WEBHOOK_VALIDATION_FAILED',
      message: 'Bad secret',
      actions: ['Check Configuration'],
    });
    const unknownCode = toRecord({ ...instagram, account: { status: 'error', status_code: 'oauth_denied' } });
    expect(unknownCode?.error?.code).toBe('CONNECTION_INACTIVE');
  });

  it('puts a pause before everything and a plan lock before other errors', () => {
    expect(toRecord({ ...base, pausedAt: new Date(), lastFailure: { errorCode: '20003' } })).toMatchObject({
      status: 'paused',
      error: { code: 'CONNECTION_INACTIVE', actions: ['Activate Connection'] },
    });
    expect(toRecord({ ...base, subaccountLocked: true })?.error?.code).toBe('BILLING_ACTIVE_SUBSCRIPTION_REQUIRED');
  });

  it('labels the sandbox and counts it live once an agent is chosen', () => {
    const record = toRecord({ ...base, type: 'whatsapp', account: { transport: 'sandbox' } });
    expect(record).toMatchObject({ status: 'live', sandbox: true, setupPath: '/con_abc/whatsapp/campaigns' });
    expect(toRecord({ ...base, type: 'calendar' })).toBeNull();
  });

  it('shows a sandbox connection as an error, never live, where the sandbox is off (production)', () => {
    const sms = recordOn({ ...base, account: { transport: 'sandbox', status: 'live' } }, { sandboxOn: false });
    expect(sms).toMatchObject({ status: 'error', sandbox: true, error: { code: 'TWILIO_AUTH_FAILED' } });
    expect(sms?.error?.message).toContain('MESSAGING_SANDBOX');
    const instagram = recordOn(
      { ...base, type: 'instagram', account: { transport: 'sandbox', status: 'live' } },
      { sandboxOn: false },
    );
    expect(instagram).toMatchObject({ status: 'error', error: { code: 'META_AUTH_FAILED' } });
  });
});
