import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type MetaWebhookBody, messagesOf, metaSignatureValid } from './meta-events';

const ACCOUNT = '17841400000000001';
const event = (message: Record<string, unknown>, sender = '5550001', recipient = ACCOUNT) => ({
  sender: { id: sender },
  recipient: { id: recipient },
  timestamp: 1,
  message,
});
const body = (...events: unknown[]): MetaWebhookBody =>
  ({ object: 'instagram', entry: [{ id: ACCOUNT, time: 1, messaging: events }] }) as MetaWebhookBody;

describe('Meta webhook bodies', () => {
  it('checks X-Hub-Signature-256 over the raw bytes with the app secret', () => {
    const raw = Buffer.from('{"object":"instagram","entry":[]}');
    const secret = 'a'.repeat(32);
    const good = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
    expect(metaSignatureValid(raw, good, secret)).toBe(true);
    expect(metaSignatureValid(raw, good.toUpperCase().replace('SHA256=', 'sha256='), secret)).toBe(true);
    expect(metaSignatureValid(Buffer.from(`${raw} `), good, secret)).toBe(false);
    expect(metaSignatureValid(raw, good, 'b'.repeat(32))).toBe(false);
    expect(metaSignatureValid(raw, good.replace('sha256=', 'sha1='), secret)).toBe(false);
    expect(metaSignatureValid(raw, 'sha256=', secret)).toBe(false);
    expect(metaSignatureValid(raw, undefined, secret)).toBe(false);
    expect(metaSignatureValid(raw, [good], secret)).toBe(false);
  });

  it('reads texts, story replies, story mentions and postbacks; leaves out echoes, reads and strangers', () => {
    const { messages, ignored } = messagesOf(
      body(
        event({ mid: 'm1', text: 'Hello' }),
        event({ mid: 'm2', text: 'Nice!', reply_to: { story: { url: 'https://cdn.example/s1', id: 's1' } } }),
        event({ mid: 'm3', attachments: [{ type: 'story_mention', payload: { url: 'https://cdn.example/s2' } }] }),
        event({ mid: 'm4', text: 'Our own answer', is_echo: true }, ACCOUNT, '5550001'),
        event({ mid: 'm5', text: 'For someone else' }, '5550001', '17841499999999999'),
        { sender: { id: '5550001' }, recipient: { id: ACCOUNT }, read: { mid: 'm1' } },
        { sender: { id: '5550001' }, recipient: { id: ACCOUNT }, postback: { mid: 'm6', title: 'Book now' } },
        event({ mid: 'm7', text: 'x' }, 'not-an-id'),
      ),
    );
    expect(messages).toEqual([
      { accountId: ACCOUNT, from: '5550001', body: 'Hello', providerSid: 'm1', mediaUrls: [] },
      {
        accountId: ACCOUNT,
        from: '5550001',
        body: '[Replied to your story] Nice!',
        providerSid: 'm2',
        mediaUrls: ['https://cdn.example/s1'],
      },
      {
        accountId: ACCOUNT,
        from: '5550001',
        body: '[Mentioned you in their story]',
        providerSid: 'm3',
        mediaUrls: ['https://cdn.example/s2'],
      },
      { accountId: ACCOUNT, from: '5550001', body: 'Book now', providerSid: 'm6', mediaUrls: [] },
    ]);
    expect(ignored).toEqual(['echo', 'other_account', 'not_a_message', 'bad_sender']);
  });

  it('never throws on any JSON, and reads only string ids', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const wrapped = [value, { entry: value }, { entry: [value] }, body(value), body({ message: value })];
        for (const candidate of wrapped) {
          const { messages } = messagesOf(candidate as MetaWebhookBody);
          for (const message of messages) {
            expect(typeof message.providerSid).toBe('string');
            expect(message.from).toMatch(/^\d+$/);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
