import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { docxOf, lyingDocx, pdfOf } from '../../testing/compressed-files';
import { startTestApp, type TestApp } from '../../testing/harness';
import { multipartUpload } from '../../testing/multipart';
import { seedAgent } from '../agents/seed';
import { chunkText } from './chunk';
import { DocumentRefusedError, readDocumentOffThread } from './extract';
import { markdownToText } from './read-document';

describe('reading documents', () => {
  it('turns markdown into its text with a markdown parser', () => {
    const text = markdownToText(
      '# Prices\n\nPanels cost [less than you think](https://example.com) and **install fast**.\n\n- one\n- two\n\n| Plan | Price |\n|---|---|\n| Basic | 10 |\n',
    );
    expect(text).toContain('Prices.');
    expect(text).toContain('Panels cost less than you think and install fast.');
    expect(text).not.toContain('https://example.com');
    expect(text).toContain('Plan: Basic; Price: 10');
  });

  it('reads input built to make a backtracking parser stall, in linear time', () => {
    const hostile = '[a]('.repeat(64 * 1024);
    expect(markdownToText(hostile).length).toBeGreaterThan(0);
    expect(chunkText(`${'\n '.repeat(100_000)}end`)).toEqual(['end']);
  });
});

describe('reading off the main thread, with limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('reads a DOCX and a PDF', async () => {
    const docx = await readDocumentOffThread(t.deps.env, 'docx', docxOf(['Warranty.', '25 years on panels.']));
    expect(docx.map((chunk) => chunk.content)).toEqual(['Warranty.\n\n25 years on panels.']);
    const pdf = await readDocumentOffThread(t.deps.env, 'pdf', pdfOf('Inverters are covered for 12 years.'));
    expect(pdf.map((chunk) => chunk.content)).toEqual(['Inverters are covered for 12 years.']);
  });

  it('refuses a DOCX or a PDF that inflates past KNOWLEDGE_MAX_UNCOMPRESSED_BYTES, whatever its headers say', async () => {
    await expect(readDocumentOffThread(t.deps.env, 'docx', lyingDocx(1024))).rejects.toThrow(
      'This DOCX file unpacks to more than 100 MB and was not read.',
    );
    // A page whose content stream inflates to 1 GB: pdf.js would grow one buffer to hold it all.
    await expect(readDocumentOffThread(t.deps.env, 'pdf', pdfOf('Hello', 1024))).rejects.toThrow(
      'This PDF file unpacks to more than 100 MB and was not read.',
    );
  });

  it('refuses a file that takes longer than the time limit, and one that needs more memory than allowed', async () => {
    const slow = readDocumentOffThread(
      { ...t.deps.env, KNOWLEDGE_EXTRACT_TIMEOUT_MS: 1 },
      'markdown',
      Buffer.from('# Hi'),
    );
    await expect(slow).rejects.toBeInstanceOf(DocumentRefusedError);
    await expect(slow).rejects.toThrow(/longer than/);
    const rows = Array.from({ length: 200_000 }, (_, i) => `${i},${'word '.repeat(20)}`).join('\n');
    const big = readDocumentOffThread(
      { ...t.deps.env, KNOWLEDGE_EXTRACT_MEMORY_MB: 32, KNOWLEDGE_EXTRACT_TIMEOUT_MS: 120_000 },
      'csv',
      Buffer.from(`id,text\n${rows}`),
    );
    await expect(big).rejects.toThrow(/more than 32 MB of memory/);
  });

  it('reads a document in a worker and answers its chunks', async () => {
    const chunks = await readDocumentOffThread(
      t.deps.env,
      'markdown',
      Buffer.from('# Warranty\n\n25 years on panels.'),
    );
    expect(chunks.map((chunk) => chunk.content)).toEqual(['Warranty.\n\n25 years on panels.']);
    expect(JSON.parse(chunks[0]?.terms ?? '{}')).toHaveProperty('warranty');
  });
});

describe('uploading hostile markdown', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('stores a 256 KB file of "[a](" while /api/health keeps answering', async () => {
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Hostile',
      owner: { email: 'owner@hostile.test', name: 'Owner' },
      subaccounts: ['Main'],
    });
    const agent = await seedAgent(t.deps.db, {
      accountId: agency.accountId,
      subaccountId: agency.subaccountIds[0] ?? '',
    });
    const cookie = await t.cookieFor(agency.ownerId);
    const send = (file: Parameters<typeof multipartUpload>[0]) => {
      const body = multipartUpload(file);
      return t.app.inject({
        method: 'POST',
        url: `/api/agents/${agent.id}/documents`,
        headers: { cookie, ...body.headers },
        payload: body.payload,
      });
    };
    const uploading = send({ name: 'notes.md', type: 'text/markdown', content: '[a]('.repeat(64 * 1024) });
    const health = await t.app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(200);
    const uploaded = await uploading;
    expect(uploaded.statusCode, uploaded.body).toBe(201);

    // A CSV of more chunks than one VALUES list could carry (PostgreSQL takes 65535 parameters).
    const rows = Array.from({ length: 450_000 }, (_, i) => `${i},a`).join('\n');
    const many = await send({ name: 'rows.csv', type: 'text/csv', content: `id,v\n${rows}` });
    expect(many.statusCode, many.body.slice(0, 300)).toBe(201);
    expect(many.json().chunkCount).toBeGreaterThan(65_535 / 7);
  }, 60_000);
});
