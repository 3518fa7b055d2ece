import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import { multipartUpload } from '../../testing/multipart';
import { seedAgent } from '../agents/seed';
import { seedAgency } from '../tenancy/seed';
import { knowledgeChunks, knowledgeDocuments } from './schema';

const multipart = multipartUpload;

const HANDBOOK = `# Sunrise Solar handbook

## Warranty
Our panels carry a 25-year performance warranty. Inverters are covered for 12 years.

## Installation
A typical installation takes two days after the permit is approved.
`;

describe('knowledge uploads', () => {
  let t: TestApp;
  let cookie: string;
  let agentId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Knowledge Agency',
      owner: { email: 'owner@knowledge.test', name: 'Owner' },
      subaccounts: ['Main'],
    });
    cookie = await t.cookieFor(agency.ownerId);
    agentId = (await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId: agency.subaccountIds[0] ?? '' }))
      .id;
  });
  afterAll(() => t.close());

  const upload = (file: Parameters<typeof multipart>[0]) => {
    const body = multipart(file);
    return t.app.inject({
      method: 'POST',
      url: `/api/agents/${agentId}/documents`,
      headers: { cookie, ...body.headers },
      payload: body.payload,
    });
  };

  it.each([
    ['no file', null, 'No file provided'],
    [
      'a file over 25 MB (even of a refused type)',
      { name: 'big.txt', type: 'text/plain', content: Buffer.alloc(25 * 1024 * 1024 + 10, 97) },
      'File exceeds 25MB limit',
    ],
    ['an executable', { name: 'tool.exe', type: 'application/x-msdownload', content: 'MZ' }, 'Unsupported file type'],
    ['a plain text file', { name: 'notes.txt', type: 'text/plain', content: 'hello' }, 'Unsupported file type'],
    ['a name with ..', { name: 'notes..md', type: 'text/markdown', content: '# x' }, 'Invalid file name'],
    ['a name with /', { name: 'docs/notes.md', type: 'text/markdown', content: '# x' }, 'Invalid file name'],
  ])('refuses %s with its message and stores nothing', async (_label, file, message) => {
    const res = await upload(file);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.json().error).toMatchObject({ code: 'MEDIA_UPLOAD_FAILED', message, field: 'file' });
    expect(await t.deps.db.select().from(knowledgeDocuments)).toHaveLength(0);
    expect(await t.deps.db.select().from(knowledgeChunks)).toHaveLength(0);
  });

  it('stores a markdown file in chunks and answers from it with the source', async () => {
    const res = await upload({ name: 'handbook.md', type: 'text/markdown', content: HANDBOOK });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'handbook.md', chunkCount: 1 });
    const csv = await upload({
      name: 'prices.csv',
      type: 'text/csv',
      content: 'plan,price\nBasic,4000\nPremium,9000\n',
    });
    expect(csv.json().chunkCount).toBe(1);
    const list = await t.app.inject({ method: 'GET', url: `/api/agents/${agentId}/documents`, headers: { cookie } });
    expect(list.json().documents).toHaveLength(2);

    const chat = await t.app.inject({
      method: 'POST',
      url: '/api/openai/run-prompt',
      headers: { cookie },
      payload: { assistantId: agentId, message: 'How long is the warranty on the panels?' },
    });
    expect(chat.json().message).toContain('25-year performance warranty');
    expect(chat.json().message).toContain('handbook.md');
    const thread = await t.app.inject({
      method: 'GET',
      url: `/api/threads/${chat.json().threadId}`,
      headers: { cookie },
    });
    expect(thread.json().messages[1].sources[0]).toMatchObject({ name: 'handbook.md' });

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/agents/${agentId}/documents/${csv.json().id}`,
      headers: { cookie },
    });
    expect(removed.statusCode).toBe(204);
  });
});
