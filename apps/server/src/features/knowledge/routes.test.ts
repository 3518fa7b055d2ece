import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { multipartUpload } from '../../testing/multipart';
import { onEachStatement } from '../../testing/statement-hook';
import { seedAgent } from '../agents/seed';
import { agentBrief } from '../evaluation/agent-brief';
import { invalidateKnowledge, retrieveKnowledge } from './retrieve';
import { knowledgeChunks, knowledgeDocuments } from './schema';
import { addDocument, CHUNKS_PER_STATEMENT } from './service';

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
  let subaccountId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Knowledge Agency',
      owner: { email: 'owner@knowledge.test', name: 'Owner' },
      subaccounts: ['Main'],
    });
    cookie = await t.cookieFor(agency.ownerId);
    subaccountId = agency.subaccountIds[0] ?? '';
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

  /** A CSV of about `rows` catalogue lines (about 15 per 900-character chunk). */
  const catalogue = (rows: number, word: string) =>
    `sku,name,description\n${Array.from({ length: rows }, (_, i) => `${i},${word} ${i},A solar panel with a long description`).join('\n')}`;

  it('stores a large CSV a slice of chunks per statement: every chunk once, in order, the document ready', async () => {
    const res = await upload({ name: 'catalogue.csv', type: 'text/csv', content: catalogue(40_000, 'Panel') });
    expect(res.statusCode).toBe(201);
    const { id, chunkCount } = res.json();
    expect(chunkCount).toBeGreaterThan(2 * CHUNKS_PER_STATEMENT);
    const chunks = await t.deps.db
      .select({ position: knowledgeChunks.position })
      .from(knowledgeChunks)
      .where(eq(knowledgeChunks.documentId, id))
      .orderBy(asc(knowledgeChunks.position));
    expect(chunks.map((chunk) => chunk.position)).toEqual(Array.from({ length: chunkCount }, (_, i) => i));
    const [document] = await t.deps.db.select().from(knowledgeDocuments).where(eq(knowledgeDocuments.id, id));
    expect(document?.ready).toBe(true);
  });

  /** The test database with a hook before each statement of a sliced write. */
  const onEachSlice = (hook: (statement: number) => void): Db => onEachStatement(t.deps.db, hook);

  /** Stores a catalogue CSV of 20,000 lines (three slices) through `db`, as the upload route does. */
  const addCatalogue = (db: Db, name: string, word: string) => {
    const content = catalogue(20_000, word);
    return addDocument(db, t.deps.env, {
      agentId,
      subaccountId,
      name,
      mimeType: 'text/csv',
      buffer: Buffer.from(content),
      size: Buffer.byteLength(content),
    });
  };

  it('answers other requests between the slices of a large document', async () => {
    const order: string[] = [];
    let statements = 0;
    // When the first slice is stored, a request comes in (a macrotask, as a socket's data is).
    const watched = onEachSlice((statement) => {
      statements = statement;
      if (statement === 1) setImmediate(() => void t.deps.database.ping().then(() => order.push('other request')));
    });
    await addCatalogue(watched, 'between.csv', 'Between');
    order.push('document stored');
    expect(statements).toBeGreaterThan(1);
    expect(order).toEqual(['other request', 'document stored']);
  });

  it('a document whose chunks fail half-way is deleted with the chunks already stored', async () => {
    let statements = 0;
    // The database fails the second slice of chunks.
    const failing = onEachSlice((statement) => {
      statements = statement;
      if (statement === 2) throw new Error('connection lost');
    });
    await expect(addCatalogue(failing, 'halfway.csv', 'Halfway')).rejects.toThrow('connection lost');
    expect(statements).toBe(2);
    expect(
      await t.deps.db.select().from(knowledgeDocuments).where(eq(knowledgeDocuments.name, 'halfway.csv')),
    ).toHaveLength(0);
    expect(
      await t.deps.db.select().from(knowledgeChunks).where(sql`${knowledgeChunks.content} like '%Halfway%'`),
    ).toHaveLength(0);
  });

  it('a document still being stored is not listed, searched or briefed; one left so for an hour is deleted at the next upload', async () => {
    const unready = async (id: string, createdAt: Date) => {
      await t.deps.db.insert(knowledgeDocuments).values({
        id,
        agentId,
        subaccountId,
        name: `${id}.md`,
        mimeType: 'text/markdown',
        sizeBytes: 40,
        chunkCount: 1,
        ready: false,
        createdAt,
      });
      await t.deps.db.insert(knowledgeChunks).values({
        id: `${id}_chunk`,
        documentId: id,
        agentId,
        position: 0,
        content: 'Heat pumps are serviced every autumn.',
        terms: { heat: 1, pumps: 1, serviced: 1, autumn: 1 },
        length: 4,
      });
    };
    await unready('document_storing', new Date());
    await unready('document_abandoned', new Date(Date.now() - 2 * 60 * 60 * 1000));

    const list = await t.app.inject({ method: 'GET', url: `/api/agents/${agentId}/documents`, headers: { cookie } });
    expect(list.json().documents.map((document: { name: string }) => document.name)).not.toContain(
      'document_storing.md',
    );
    const question = 'When are heat pumps serviced?';
    invalidateKnowledge(agentId);
    expect(await retrieveKnowledge(t.deps.db, agentId, question, 4)).toEqual([]);
    expect(await agentBrief(t.deps, subaccountId, agentId)).not.toContain('document_storing');

    const res = await upload({ name: 'faq.md', type: 'text/markdown', content: '# FAQ\n\nWe answer within a day.' });
    expect(res.statusCode).toBe(201);
    const left = await t.deps.db
      .select({ id: knowledgeDocuments.id })
      .from(knowledgeDocuments)
      .where(eq(knowledgeDocuments.ready, false));
    expect(left).toEqual([{ id: 'document_storing' }]);
    expect(
      await t.deps.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.documentId, 'document_abandoned')),
    ).toHaveLength(0);

    // Once ready, the same document is found.
    await t.deps.db
      .update(knowledgeDocuments)
      .set({ ready: true })
      .where(eq(knowledgeDocuments.id, 'document_storing'));
    invalidateKnowledge(agentId);
    expect((await retrieveKnowledge(t.deps.db, agentId, question, 4))[0]).toMatchObject({
      documentId: 'document_storing',
      excerpt: 'Heat pumps are serviced every autumn.',
    });
  });
});
