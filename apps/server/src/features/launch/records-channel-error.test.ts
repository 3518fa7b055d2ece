import { describe, expect, it } from 'vitest';
import { type ConnectionFacts, toRecord } from './records';

const base: ConnectionFacts = {
  id: 'con_err',
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
  account: { transport: 'twilio', verified_at: '2026-01-01T00:00:00Z', sender_phone: '+14155550100' },
  reached: true,
  lastFailure: null,
  subaccountLocked: false,
};
const credentialsOf = (facts: ConnectionFacts, key = 'credentials') =>
  toRecord(facts, { sandboxOn: true })?.checklist.find((item) => item.key === key);

describe('the Launch checklist of a channel in error', () => {
  it('says the channel is in error with its message instead of "credentials verified"', () => {
    expect(credentialsOf(base)).toMatchObject({ label: 'Twilio credentials verified', done: true });
    const refused = credentialsOf({ ...base, lastFailure: { errorCode: '20003' } });
    expect(refused).toMatchObject({
      label:
        'Channel in error (TWILIO_AUTH_FAILED): Twilio refused the credentials on the last send (20003). Enter them again.',
      done: false,
      required: true,
    });
    const stored = credentialsOf({
      ...base,
      account: { ...base.account, status: 'error', status_code: 'TWILIO_AUTH_FAILED', status_message: 'Authenticate' },
    });
    expect(stored).toMatchObject({ label: 'Channel in error (TWILIO_AUTH_FAILED): Authenticate', done: false });
  });

  it('says so on Instagram too, and not for errors of the plan or the agent', () => {
    const instagram: ConnectionFacts = {
      ...base,
      type: 'instagram',
      account: {
        transport: 'meta',
        external_account_id: '1784',
        status: 'error',
        status_code: 'META_AUTH_FAILED',
        status_message: 'Meta refused the stored page token.',
      },
    };
    expect(credentialsOf(instagram, 'account')).toMatchObject({
      label: 'Channel in error (META_AUTH_FAILED): Meta refused the stored page token.',
      done: false,
    });
    expect(credentialsOf({ ...base, subaccountLocked: true })).toMatchObject({ done: true });
    expect(credentialsOf({ ...base, buildId: null })).toMatchObject({ done: true });
  });
});
