import { describe, expect, it } from 'vitest';
import {
  appToolReadsOnly,
  isToolNotCalled,
  originOfChannel,
  reachesOutside,
  stricterOrigin,
  toolNotCalled,
  toolRunsFor,
} from './origin';

describe('the origin of a turn', () => {
  it('is a test on the evaluation, test and demo channels, live elsewhere', () => {
    expect(originOfChannel('evaluation')).toBe('evaluation');
    expect(originOfChannel('test')).toBe('sandbox');
    expect(originOfChannel('demo')).toBe('sandbox');
    for (const channel of ['widget', 'website-block', 'api', 'sms', 'whatsapp', 'instagram'])
      expect(originOfChannel(channel), channel).toBe('live');
  });

  it('can be made stricter by a caller, never live for a test channel', () => {
    expect(stricterOrigin('live', originOfChannel('evaluation'))).toBe('evaluation');
    expect(stricterOrigin('evaluation', originOfChannel('api'))).toBe('evaluation');
    expect(stricterOrigin('sandbox', 'evaluation')).toBe('evaluation');
    expect(reachesOutside('live')).toBe(true);
    expect(reachesOutside('sandbox')).toBe(false);
    expect(reachesOutside('evaluation')).toBe(false);
  });

  it('runs every tool live, what reads in a test, and the sandbox catalogue only when a person tries the agent', () => {
    expect(toolRunsFor('live', 'write')).toBe(true);
    expect(toolRunsFor('evaluation', 'read')).toBe(true);
    expect(toolRunsFor('evaluation', 'sandbox')).toBe(false);
    expect(toolRunsFor('evaluation', 'write')).toBe(false);
    expect(toolRunsFor('sandbox', 'sandbox')).toBe(true);
    expect(toolRunsFor('sandbox', 'write')).toBe(false);
  });
});

describe('what an app tool does', () => {
  it("reads only when its metadata says so: Composio's tags or an MCP tool's annotations", () => {
    expect(appToolReadsOnly({ slug: 'GMAIL_FETCH_EMAILS', tags: ['readOnlyHint'] })).toBe(true);
    expect(appToolReadsOnly({ slug: 'GMAIL_SEND_EMAIL', tags: ['createHint'] })).toBe(false);
    expect(appToolReadsOnly({ slug: 'X', tags: ['readOnlyHint', 'destructiveHint'] })).toBe(false);
    expect(appToolReadsOnly({ name: 'get_weather', annotations: { readOnlyHint: true } })).toBe(true);
    expect(appToolReadsOnly({ name: 'delete', annotations: { readOnlyHint: false, destructiveHint: true } })).toBe(
      false,
    );
    for (const unknown of [{ slug: 'NO_TAGS' }, { name: 'bare' }, null, 'text'])
      expect(appToolReadsOnly(unknown), JSON.stringify(unknown)).toBe(false);
  });

  it('records a call a test did not make with its arguments', () => {
    const record = toolNotCalled('SANDBOX_CALENDAR_BOOK_SLOT', { date: '2031-03-05' });
    expect(isToolNotCalled(record)).toBe(true);
    expect(record).toMatchObject({ tool: 'SANDBOX_CALENDAR_BOOK_SLOT', arguments: { date: '2031-03-05' } });
    expect(isToolNotCalled({ booked: true })).toBe(false);
  });
});
