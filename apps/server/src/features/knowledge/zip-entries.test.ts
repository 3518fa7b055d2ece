import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { deflatedEntry, deflatedRepeat, docxOf, lyingDocx, zipOf } from '../../testing/compressed-files';
import { startTestApp, type TestApp } from '../../testing/harness';
import { multipartUpload } from '../../testing/multipart';
import { seedAgent } from '../agents/seed';
import { knowledgeDocuments } from './schema';
import { storedZip, UnpackLimitError, unzipWithin } from './zip-entries';

const MiB = 1024 * 1024;
const everything = () => true;

describe('unpacking a zip within a limit counted on its data', () => {
  it('unpacks the wanted entries, stored or deflated, and hands them on as a stored zip', () => {
    const zip = zipOf([
      deflatedEntry('word/document.xml', '<w:t>Hello</w:t>'.repeat(1000)),
      { name: 'notes.txt', data: Buffer.from('plain'), method: 0, declaredSize: 5 },
      deflatedEntry('word/media/image1.png', 'not wanted'),
    ]);
    const entries = unzipWithin(zip, MiB, (name) => !name.includes('media'));
    expect([...entries.keys()]).toEqual(['word/document.xml', 'notes.txt']);
    expect(entries.get('word/document.xml')?.toString()).toBe('<w:t>Hello</w:t>'.repeat(1000));
    expect(unzipWithin(storedZip(entries), MiB, everything)).toEqual(entries);
  });

  it('refuses entries that inflate past the limit, whatever their headers declare', () => {
    const lying = zipOf([{ name: 'word/document.xml', data: deflatedRepeat(64), method: 8, declaredSize: 4096 }]);
    expect(() => unzipWithin(lying, 32 * MiB, everything)).toThrow(UnpackLimitError);
    // Entries each under the limit, together over it.
    const several = zipOf(
      Array.from({ length: 3 }, (_, i) => ({
        name: `part${i}.xml`,
        data: deflatedRepeat(12),
        method: 8 as const,
        declaredSize: 10,
      })),
    );
    expect(() => unzipWithin(several, 32 * MiB, everything)).toThrow(UnpackLimitError);
    expect(unzipWithin(several, 40 * MiB, everything).get('part2.xml')?.length).toBe(12 * MiB);
  });

  it('refuses what is not a zip', () => {
    expect(() => unzipWithin(Buffer.from('not a zip at all'), MiB, everything)).toThrow(/not a readable zip/);
  });
});

describe('uploading DOCX files whose zip headers lie about their sizes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const rssMiB = () => process.memoryUsage.rss() / MiB;

  it('refuses three at once with the upload error, and the server gives back the memory', async () => {
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Bombs',
      owner: { email: 'owner@bombs.test', name: 'Owner' },
      subaccounts: ['Main'],
    });
    const agent = await seedAgent(t.deps.db, {
      accountId: agency.accountId,
      subaccountId: agency.subaccountIds[0] ?? '',
    });
    const cookie = await t.cookieFor(agency.ownerId);
    const upload = (content: Buffer) => {
      const body = multipartUpload({
        name: 'handbook.docx',
        type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        content,
      });
      return t.app.inject({
        method: 'POST',
        url: `/api/agents/${agent.id}/documents`,
        headers: { cookie, ...body.headers },
        payload: body.payload,
      });
    };
    // An honest DOCX first: it is read, and the reader's code is loaded before measuring.
    const honest = await upload(docxOf(['Our panels carry a 25-year warranty.']));
    expect(honest.statusCode, honest.body).toBe(201);
    expect(honest.json().chunkCount).toBe(1);

    const bomb = lyingDocx(1024);
    expect(bomb.length).toBeLessThan(1.1 * MiB);
    const before = rssMiB();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB());
    }, 10);
    const answers = await Promise.all([upload(bomb), upload(bomb), upload(bomb)]);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(422);
      expect(answer.json().error).toMatchObject({
        code: 'MEDIA_UPLOAD_FAILED',
        message: 'This DOCX file unpacks to more than 100 MB and was not read.',
        field: 'file',
      });
    }
    // The readers' threads end just after their answers, and their memory goes with them.
    await sleep(1000);
    for (let waited = 0; waited < 4000 && rssMiB() - before >= 100; waited += 100) await sleep(100);
    clearInterval(sampler);
    expect(peak - before).toBeLessThan(300);
    expect(rssMiB() - before).toBeLessThan(100);
    expect(await t.deps.db.select().from(knowledgeDocuments)).toHaveLength(1);
  }, 120_000);
});
