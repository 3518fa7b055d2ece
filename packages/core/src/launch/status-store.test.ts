import { describe, expect, it } from 'vitest';
import { createStatusStore, statusEntries } from './status-store';

describe('the connection status store', () => {
  it('marks trigger:{app_slug} not connected for a pending_connection record with an app_slug', () => {
    const entries = statusEntries([{ connectionId: 'con_a', appSlug: 'instagram', status: 'pending_connection' }]);
    expect(entries.get('trigger:instagram')).toBe('not_connected');
    expect(entries.get('connection:con_a')).toBe('pending_connection');
  });

  it('keeps a pending record without an app_slug out of the triggers', () => {
    const entries = statusEntries([{ connectionId: 'con_a', appSlug: null, status: 'pending_connection' }]);
    expect([...entries.keys()]).toEqual(['connection:con_a']);
  });

  it('lets a live record of the same app decide, whatever the order', () => {
    const live = { connectionId: 'con_live', appSlug: 'sms', status: 'live' as const };
    const pending = { connectionId: 'con_pending', appSlug: 'sms', status: 'pending_connection' as const };
    expect(statusEntries([live, pending]).get('trigger:sms')).toBe('live');
    expect(statusEntries([pending, live]).get('trigger:sms')).toBe('live');
  });

  it('puts pending before error before paused when nothing is live', () => {
    const error = { connectionId: 'con_e', appSlug: 'whatsapp', status: 'error' as const };
    const paused = { connectionId: 'con_p', appSlug: 'whatsapp', status: 'paused' as const };
    const pending = { connectionId: 'con_n', appSlug: 'whatsapp', status: 'pending_connection' as const };
    expect(statusEntries([paused, error]).get('trigger:whatsapp')).toBe('error');
    expect(statusEntries([paused]).get('trigger:whatsapp')).toBe('paused');
    expect(statusEntries([paused, error, pending]).get('trigger:whatsapp')).toBe('not_connected');
  });

  it('keeps each sub-account apart and answers not connected for a channel without records', () => {
    const store = createStatusStore();
    store.load('sub_one', [{ connectionId: 'con_1', appSlug: 'website-widget', status: 'live' }]);
    store.load('sub_two', [{ connectionId: 'con_2', appSlug: 'website-widget', status: 'pending_connection' }]);
    expect(store.channelState('sub_one', 'website-widget')).toBe('live');
    expect(store.channelState('sub_two', 'website-widget')).toBe('not_connected');
    expect(store.channelState('sub_one', 'instagram')).toBe('not_connected');
    expect(store.get('sub_two', 'connection:con_2')).toBe('pending_connection');
    expect(store.get('sub_one', 'connection:con_2')).toBeUndefined();
    // A reload replaces the sub-account's entries.
    store.load('sub_one', [{ connectionId: 'con_1', appSlug: 'website-widget', status: 'paused' }]);
    expect(store.channelState('sub_one', 'website-widget')).toBe('paused');
    store.clear('sub_one');
    expect(store.channelState('sub_one', 'website-widget')).toBe('not_connected');
    expect(store.channelState('sub_two', 'website-widget')).toBe('not_connected');
  });
});
