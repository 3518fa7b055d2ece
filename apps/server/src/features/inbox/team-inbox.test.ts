import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { INBOX_LIMITS } from '@switchboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { type SeededAgency, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { contacts } from '../channels/schema';
import { connections } from '../connections/schema';
import { threads } from '../conversations/schema';

/**
 * The team inbox: every channel's conversations of a sub-account, given to people, labelled,
 * answered with canned replies, with the contact's profile; each change pushed to open inboxes.
 */
let t: TestApp;
let agency: SeededAgency;
let other: SeededAgency;
let one: string;
let otherSub: string;
let owner: string;
let member: string;
let viewer: string;
let client: string;
let stranger: string;
let memberId: string;
let smsThread: string;
let waThread: string;
let widgetThread: string;
let igThread: string;
let testThread: string;
let otherThread: string;
let smsConnection: string;

const PHONE = '+15551230001';

const addConnection = async (subaccountId: string, accountId: string, type: 'sms' | 'whatsapp' | 'website-widget') => {
  const id = newId('connection');
  const widgetId = newId('widget');
  await t.deps.db
    .insert(connections)
    .values({ id, subaccountId, accountId, type, name: `${type} line`, widgetId, settings: {} as never });
  return { id, widgetId };
};

const addThread = async (
  subaccountId: string,
  channel: 'sms' | 'whatsapp' | 'widget' | 'instagram' | 'test',
  channelRef: string | null,
  contactIdentifier: string | null,
  minutesAgo: number,
) => {
  const id = newId('thread');
  await t.deps.db.insert(threads).values({
    id,
    subaccountId,
    agentId: 'agt_test',
    channel,
    channelRef,
    contactIdentifier,
    lastMessage: `hello from ${channel}`,
    messageCount: 1,
    lastMessageAt: new Date(Date.now() - minutesAgo * 60_000),
  });
  return id;
};

beforeAll(async () => {
  t = await startTestApp();
  agency = await seedAgency(t.deps.db, {
    accountName: 'Acme Agency',
    owner: { email: 'owner@acme.test', name: 'Acme Owner' },
    subaccounts: ['Client One'],
    users: [
      { email: 'member@one.test', name: 'Mo Member', role: 'member', subaccounts: ['Client One'] },
      { email: 'viewer@one.test', name: 'Vi Viewer', role: 'viewer', subaccounts: ['Client One'] },
      { email: 'client@one.test', name: 'Carla Client', role: 'client', subaccounts: ['Client One'] },
    ],
  });
  other = await seedAgency(t.deps.db, {
    accountName: 'Other Agency',
    owner: { email: 'owner@other.test', name: 'Other Owner' },
    subaccounts: ['Other Client'],
  });
  one = agency.subaccountIds[0] as string;
  otherSub = other.subaccountIds[0] as string;
  owner = await t.cookieFor(agency.ownerId);
  memberId = agency.userIds['member@one.test'] as string;
  member = await t.cookieFor(memberId);
  viewer = await t.cookieFor(agency.userIds['viewer@one.test'] as string);
  client = await t.cookieFor(agency.userIds['client@one.test'] as string);
  stranger = await t.cookieFor(other.ownerId);
  const sms = await addConnection(one, agency.accountId, 'sms');
  smsConnection = sms.id;
  const wa = await addConnection(one, agency.accountId, 'whatsapp');
  const widget = await addConnection(one, agency.accountId, 'website-widget');
  smsThread = await addThread(one, 'sms', sms.id, PHONE, 1);
  waThread = await addThread(one, 'whatsapp', wa.id, PHONE, 2);
  widgetThread = await addThread(one, 'widget', widget.widgetId, null, 3);
  igThread = await addThread(one, 'instagram', null, '17840000000', 4);
  testThread = await addThread(one, 'test', null, null, 5);
  const otherSms = await addConnection(otherSub, other.accountId, 'sms');
  otherThread = await addThread(otherSub, 'sms', otherSms.id, PHONE, 1);
  await t.deps.db.insert(contacts).values({ id: newId('contact'), subaccountId: one, phone: PHONE, name: 'Pat Lee' });
});
afterAll(() => t.close());

const call = (cookie: string, method: string, url: string, payload?: object) =>
  t.app.inject({ method: method as 'GET', url, payload, headers: { cookie } });
const inbox = (path = '') => `/api/subaccounts/${one}/inbox${path}`;
const listIds = async (query: string, cookie = member) => {
  const response = await call(cookie, 'GET', inbox(`/threads${query}`));
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().threads as { threadId: string }[]).map((thread) => thread.threadId);
};

describe('the list', () => {
  it('holds every channel of the sub-account, newest first, with the connection and the contact name', async () => {
    const response = await call(viewer, 'GET', inbox('/threads'));
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.threads.map((thread: { threadId: string }) => thread.threadId)).toEqual([
      smsThread,
      waThread,
      widgetThread,
      igThread,
    ]);
    expect(body.threads[0]).toMatchObject({
      channel: 'sms',
      connectionId: smsConnection,
      connectionName: 'sms line',
      contactName: 'Pat Lee',
      assignedUserId: null,
      labelIds: [],
    });
    expect(body.threads[2].connectionId).not.toBeNull();
    expect(body.hasMore).toBe(false);
    const paged = await call(viewer, 'GET', inbox('/threads?limit=2&page=2'));
    expect(paged.json().threads.map((thread: { threadId: string }) => thread.threadId)).toEqual([
      widgetThread,
      igThread,
    ]);
  });

  it('filters by channel; a channel it does not know is a 422', async () => {
    expect(await listIds('?channel=whatsapp')).toEqual([waThread]);
    const bad = await call(member, 'GET', inbox('/threads?channel=test'));
    expect(bad.statusCode).toBe(422);
  });

  it('is refused to another agency (404) and to the signed out (401)', async () => {
    expect((await call(stranger, 'GET', inbox('/threads'))).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: inbox('/threads') })).statusCode).toBe(401);
  });
});

describe('assignment', () => {
  it('gives a thread to a member, filters by "me", "none" and a person, and unassigns', async () => {
    const given = await call(owner, 'PUT', inbox(`/threads/${smsThread}/assignee`), { userId: memberId });
    expect(given.statusCode, given.body).toBe(200);
    expect(given.json()).toEqual({ threadId: smsThread, assignedUserId: memberId });
    expect(await listIds('?assignee=me')).toEqual([smsThread]);
    expect(await listIds('?assignee=me', owner)).toEqual([]);
    expect(await listIds(`?assignee=${memberId}`, owner)).toEqual([smsThread]);
    expect(await listIds('?assignee=none')).toEqual([waThread, widgetThread, igThread]);
    expect(await listIds('?assignee=me&channel=whatsapp')).toEqual([]);
    const back = await call(member, 'PUT', inbox(`/threads/${smsThread}/assignee`), { userId: null });
    expect(back.json().assignedUserId).toBeNull();
    expect(await listIds('?assignee=me')).toEqual([]);
  });

  it('refuses a viewer, a person of another agency, and threads that are not the inbox’s', async () => {
    const toViewer = await call(owner, 'PUT', inbox(`/threads/${smsThread}/assignee`), {
      userId: agency.userIds['viewer@one.test'],
    });
    expect(toViewer.statusCode).toBe(422);
    expect(toViewer.json().error.message).toContain('viewer');
    const toStranger = await call(owner, 'PUT', inbox(`/threads/${smsThread}/assignee`), { userId: other.ownerId });
    expect(toStranger.statusCode).toBe(422);
    expect(toStranger.json().error.message).toContain('not part of this sub-account');
    const foreign = await call(owner, 'PUT', inbox(`/threads/${otherThread}/assignee`), { userId: memberId });
    expect(foreign.statusCode).toBe(404);
    const test = await call(owner, 'PUT', inbox(`/threads/${testThread}/assignee`), { userId: memberId });
    expect(test.statusCode).toBe(404);
    const byViewer = await call(viewer, 'PUT', inbox(`/threads/${smsThread}/assignee`), { userId: null });
    expect(byViewer.statusCode).toBe(403);
    const byStranger = await call(stranger, 'PUT', `/api/subaccounts/${otherSub}/inbox/threads/${smsThread}/assignee`, {
      userId: null,
    });
    expect(byStranger.statusCode).toBe(404);
  });

  it('lists who can be given a conversation: not viewers', async () => {
    const response = await call(viewer, 'GET', inbox('/assignees'));
    const emails = response.json().assignees.map((person: { email: string }) => person.email);
    expect(emails).toContain('member@one.test');
    expect(emails).toContain('owner@acme.test');
    expect(emails).not.toContain('viewer@one.test');
  });

  it('tells every open inbox of the sub-account', async () => {
    const seen: unknown[] = [];
    const stop = t.deps.bus.subscribe(`subaccount:${one}:conversations`, (payload) => seen.push(payload));
    await call(member, 'PUT', inbox(`/threads/${waThread}/assignee`), { userId: memberId });
    await call(member, 'PUT', inbox(`/threads/${waThread}/assignee`), { userId: null });
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop();
    expect(seen).toContainEqual({ kind: 'assignee', threadId: waThread });
  });
});

describe('the team inbox stream', () => {
  it('pushes each change of the sub-account to an open inbox over server-sent events', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    let received = '';
    let request: http.ClientRequest | undefined;
    const opened = new Promise<number>((resolve, reject) => {
      request = http.get(
        `${base}${inbox('/events')}`,
        { headers: { accept: 'text/event-stream', cookie: viewer } },
        (response) => {
          resolve(response.statusCode ?? 0);
          response.on('data', (chunk: Buffer) => {
            received += chunk.toString();
          });
        },
      );
      request.on('error', reject);
    });
    expect(await opened).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await call(member, 'PUT', inbox(`/threads/${igThread}/assignee`), { userId: memberId });
    await call(member, 'POST', inbox('/canned-replies'), { title: 'Streamed', content: 'Hello' });
    const deadline = Date.now() + 5000;
    while (!received.includes('canned-replies') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 25));
    request?.destroy();
    expect(received).toContain(`event: thread\ndata: {"kind":"assignee","threadId":"${igThread}"}`);
    expect(received).toContain('"kind":"canned-replies"');
    await call(member, 'PUT', inbox(`/threads/${igThread}/assignee`), { userId: null });
    const streamed = (await call(member, 'GET', inbox('/canned-replies'))).json().cannedReplies[0];
    await call(member, 'DELETE', inbox(`/canned-replies/${streamed.cannedReplyId}`));
  });

  it('is refused to another agency', async () => {
    expect((await call(stranger, 'GET', inbox('/events'))).statusCode).toBe(404);
  });
});

describe('labels', () => {
  let urgent: string;
  let billing: string;

  it('creates labels with a colour; names are unique whatever their case', async () => {
    const created = await call(member, 'POST', inbox('/labels'), { name: 'Urgent', color: 'red' });
    expect(created.statusCode, created.body).toBe(201);
    urgent = created.json().labelId;
    expect(urgent).toMatch(/^lbl_/);
    billing = (await call(member, 'POST', inbox('/labels'), { name: 'Billing' })).json().labelId;
    const same = await call(member, 'POST', inbox('/labels'), { name: ' urgent ', color: 'blue' });
    expect(same.statusCode).toBe(409);
    expect(same.json().error.message).toContain('already exists');
    const rename = await call(member, 'PATCH', inbox(`/labels/${billing}`), { name: 'URGENT' });
    expect(rename.statusCode).toBe(409);
    expect((await call(member, 'POST', inbox('/labels'), { name: '' })).statusCode).toBe(422);
    expect((await call(member, 'POST', inbox('/labels'), { name: 'x', color: 'neon' })).statusCode).toBe(422);
    expect((await call(member, 'POST', inbox('/labels'), { name: 'x'.repeat(41) })).statusCode).toBe(422);
    const list = await call(viewer, 'GET', inbox('/labels'));
    expect(list.json().labels.map((label: { name: string }) => label.name)).toEqual(['Billing', 'Urgent']);
  });

  it('renames and recolours; another agency cannot reach them', async () => {
    const renamed = await call(member, 'PATCH', inbox(`/labels/${billing}`), { name: 'Invoices', color: 'teal' });
    expect(renamed.json()).toEqual({ labelId: billing, name: 'Invoices', color: 'teal' });
    const foreign = await call(stranger, 'PATCH', `/api/subaccounts/${otherSub}/inbox/labels/${billing}`, {
      name: 'Mine',
    });
    expect(foreign.statusCode).toBe(404);
    expect((await call(stranger, 'DELETE', `/api/subaccounts/${otherSub}/inbox/labels/${billing}`)).statusCode).toBe(
      404,
    );
  });

  it('applies and removes labels on threads; the list filters by label, with the other filters', async () => {
    const set = await call(member, 'PUT', inbox(`/threads/${smsThread}/labels`), { labelIds: [urgent, billing] });
    expect(set.statusCode, set.body).toBe(200);
    await call(member, 'PUT', inbox(`/threads/${igThread}/labels`), { labelIds: [urgent] });
    expect(await listIds(`?label=${urgent}`)).toEqual([smsThread, igThread]);
    expect(await listIds(`?label=${urgent}&channel=instagram`)).toEqual([igThread]);
    await call(owner, 'PUT', inbox(`/threads/${igThread}/assignee`), { userId: memberId });
    expect(await listIds(`?label=${urgent}&assignee=me`)).toEqual([igThread]);
    await call(member, 'PUT', inbox(`/threads/${igThread}/labels`), { labelIds: [] });
    expect(await listIds(`?label=${urgent}`)).toEqual([smsThread]);
    const row = (await call(member, 'GET', inbox('/threads'))).json().threads[0];
    expect([...row.labelIds].sort()).toEqual([urgent, billing].sort());
  });

  it('refuses another sub-account’s label and too many labels on a thread', async () => {
    const theirs = await call(stranger, 'POST', `/api/subaccounts/${otherSub}/inbox/labels`, { name: 'Theirs' });
    const foreign = await call(member, 'PUT', inbox(`/threads/${smsThread}/labels`), {
      labelIds: [theirs.json().labelId],
    });
    expect(foreign.statusCode).toBe(422);
    const onTheirThread = await call(
      stranger,
      'PUT',
      `/api/subaccounts/${otherSub}/inbox/threads/${otherThread}/labels`,
      {
        labelIds: [urgent],
      },
    );
    expect(onTheirThread.statusCode).toBe(422);
    const many = await call(member, 'PUT', inbox(`/threads/${smsThread}/labels`), {
      labelIds: Array.from({ length: INBOX_LIMITS.labelsPerThread + 1 }, (_, i) => `lbl_${i}`),
    });
    expect(many.statusCode).toBe(422);
    const stillThere = (await call(member, 'GET', inbox('/threads'))).json().threads[0];
    expect(stillThere.labelIds).toHaveLength(2);
  });

  it('deleting a label takes it off its threads', async () => {
    expect((await call(member, 'DELETE', inbox(`/labels/${billing}`))).statusCode).toBe(204);
    const row = (await call(member, 'GET', inbox('/threads'))).json().threads[0];
    expect(row.labelIds).toEqual([urgent]);
    expect((await call(member, 'DELETE', inbox(`/labels/${billing}`))).statusCode).toBe(404);
  });

  it(`stops at ${INBOX_LIMITS.labelsPerSubaccount} labels, even asked for at once`, async () => {
    const existing = (await call(member, 'GET', inbox('/labels'))).json().labels.length;
    const wanted = INBOX_LIMITS.labelsPerSubaccount - existing + 3;
    const answers = await Promise.all(
      Array.from({ length: wanted }, (_, i) => call(member, 'POST', inbox('/labels'), { name: `L${i}` })),
    );
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(wanted - 3);
    const refused = answers.filter((answer) => answer.statusCode === 409);
    expect(refused).toHaveLength(3);
    expect(refused[0]?.json().error.message).toContain(`at most ${INBOX_LIMITS.labelsPerSubaccount}`);
    expect((await call(member, 'GET', inbox('/labels'))).json().labels).toHaveLength(INBOX_LIMITS.labelsPerSubaccount);
  });
});

describe('canned replies', () => {
  it('are created, edited, listed and deleted; titles unique; another agency cannot reach them', async () => {
    const created = await call(member, 'POST', inbox('/canned-replies'), {
      title: 'Opening hours',
      content: 'We are open 9 to 5, Monday to Friday.',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().cannedReplyId;
    expect(id).toMatch(/^cnr_/);
    const twice = await call(member, 'POST', inbox('/canned-replies'), { title: 'opening HOURS', content: 'x' });
    expect(twice.statusCode).toBe(409);
    expect((await call(member, 'POST', inbox('/canned-replies'), { title: 'Empty', content: '  ' })).statusCode).toBe(
      422,
    );
    const edited = await call(member, 'PUT', inbox(`/canned-replies/${id}`), {
      title: 'Opening hours',
      content: 'Open 9 to 6.',
    });
    expect(edited.json()).toEqual({ cannedReplyId: id, title: 'Opening hours', content: 'Open 9 to 6.' });
    const list = await call(viewer, 'GET', inbox('/canned-replies'));
    expect(list.json().cannedReplies).toEqual([edited.json()]);
    expect((await call(viewer, 'POST', inbox('/canned-replies'), { title: 'V', content: 'v' })).statusCode).toBe(403);
    const foreign = await call(stranger, 'PUT', `/api/subaccounts/${otherSub}/inbox/canned-replies/${id}`, {
      title: 'Mine',
      content: 'mine',
    });
    expect(foreign.statusCode).toBe(404);
    expect((await call(stranger, 'GET', inbox('/canned-replies'))).statusCode).toBe(404);
    expect((await call(member, 'DELETE', inbox(`/canned-replies/${id}`))).statusCode).toBe(204);
    expect((await call(member, 'GET', inbox('/canned-replies'))).json().cannedReplies).toEqual([]);
  });
});

describe('contact profile', () => {
  it('shows the name, the number and every thread of that number on every channel of the sub-account', async () => {
    const response = await call(viewer, 'GET', inbox(`/threads/${smsThread}/contact`));
    expect(response.statusCode, response.body).toBe(200);
    const profile = response.json();
    expect(profile).toMatchObject({ contactIdentifier: PHONE, kind: 'phone', name: 'Pat Lee', notes: '' });
    expect(profile.threads.map((thread: { threadId: string }) => thread.threadId)).toEqual([smsThread, waThread]);
    const instagram = (await call(viewer, 'GET', inbox(`/threads/${igThread}/contact`))).json();
    expect(instagram.kind).toBe('username');
  });

  it('keeps the team’s name and notes for the contact, shared by all their threads', async () => {
    const saved = await call(member, 'PATCH', inbox(`/threads/${smsThread}/contact`), {
      name: 'Pat Lee-Jones',
      notes: 'Prefers WhatsApp.',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const fromWhatsApp = (await call(viewer, 'GET', inbox(`/threads/${waThread}/contact`))).json();
    expect(fromWhatsApp).toMatchObject({ name: 'Pat Lee-Jones', notes: 'Prefers WhatsApp.' });
    await call(member, 'PATCH', inbox(`/threads/${waThread}/contact`), { notes: 'Prefers SMS.' });
    const again = (await call(viewer, 'GET', inbox(`/threads/${smsThread}/contact`))).json();
    expect(again).toMatchObject({ name: 'Pat Lee-Jones', notes: 'Prefers SMS.' });
    const listed = (await call(viewer, 'GET', inbox('/threads?channel=sms'))).json().threads[0];
    expect(listed.contactName).toBe('Pat Lee-Jones');
  });

  it('refuses bad input, visitors without an identifier, viewers and other agencies', async () => {
    expect((await call(member, 'PATCH', inbox(`/threads/${smsThread}/contact`), {})).statusCode).toBe(422);
    const long = await call(member, 'PATCH', inbox(`/threads/${smsThread}/contact`), { notes: 'x'.repeat(4001) });
    expect(long.statusCode).toBe(422);
    const visitor = await call(member, 'PATCH', inbox(`/threads/${widgetThread}/contact`), { notes: 'hi' });
    expect(visitor.statusCode).toBe(422);
    expect((await call(viewer, 'PATCH', inbox(`/threads/${smsThread}/contact`), { notes: 'v' })).statusCode).toBe(403);
    expect((await call(member, 'GET', inbox(`/threads/${otherThread}/contact`))).statusCode).toBe(404);
    const theirs = (
      await call(stranger, 'GET', `/api/subaccounts/${otherSub}/inbox/threads/${otherThread}/contact`)
    ).json();
    expect(theirs.name).toBeNull();
    expect(theirs.threads).toHaveLength(1);
  });
});

describe('clients', () => {
  it('read the inbox; act only while the agency lets them reply in the inbox', async () => {
    expect((await call(client, 'GET', inbox('/threads'))).statusCode).toBe(200);
    const on = await call(client, 'PUT', inbox(`/threads/${smsThread}/assignee`), {
      userId: agency.userIds['client@one.test'],
    });
    expect(on.statusCode, on.body).toBe(200);
    const off = await call(owner, 'PATCH', `/api/subaccounts/${one}/client-access`, { inbox: false });
    expect(off.statusCode, off.body).toBe(200);
    const refused = await call(client, 'POST', inbox('/labels'), { name: 'By client' });
    expect(refused.statusCode).toBe(403);
    expect((await call(client, 'GET', inbox('/labels'))).statusCode).toBe(200);
    await call(owner, 'PATCH', `/api/subaccounts/${one}/client-access`, { inbox: true });
  });
});
