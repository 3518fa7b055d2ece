#!/usr/bin/env node
/**
 * Campaign benchmark: 10,000 contacts through the sandbox transport at an unlimited rate.
 *
 * The built server runs on the embedded database with a stub model. 10,000 contacts are imported
 * from a CSV, an SMS campaign to all of them is started, and the figure is messages per second from
 * the campaign's start to its completion (from its own startedAt / completedAt). Meanwhile a
 * visitor chats with a website widget every 50 ms; the figure is how much the widget chat's p99
 * rose over the idle server's p99.
 * Targets: >= 500 messages/s; widget chat p99 added <= 50 ms.
 *
 * It runs on the embedded database (PGlite, whose statements run on the server's event loop) and,
 * when the machine has PostgreSQL 15, on PostgreSQL as well (BENCH_DB=pglite skips it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  call,
  freePort,
  percentile,
  setupWidget,
  sleep,
  startBenchServer,
  startPostgres,
  startStubModel,
} from './widget-support.js';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 10_000);
const TARGET_MPS = 500;
const TARGET_ADDED_P99_MS = 50;

const stub = await startStubModel();
let failed = false;

const runOn = async (label, env) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-campaign-bench-'));
  // The sandbox transport is off in production unless allowed: the benchmark sends through it.
  // A port of its own: the previous run's server may still be draining on its port.
  const server = await startBenchServer({
    port: await freePort(),
    dataDir,
    stubUrl: stub.url,
    env: { MESSAGING_SANDBOX: 'true', ...env },
  });
  const { base } = server;
  try {
    const { widgetId, cookie } = await setupWidget(base, { dailyLimit: 1_000_000 });
    const headers = { cookie, origin: base };
    const agents = JSON.parse((await call(`${base}/api/agents`, { headers: { cookie } })).text).agents;
    const agent = agents[0];
    const chat = (n) =>
      call(`${base}/api/widget/${widgetId}/chat`, {
        body: { message: `Visitor ${n}: do you install solar panels?`, contactIdentifier: `preview_campaign_${n}` },
      });
    /** Widget chat times (ms), one chat every 50 ms, while `work` runs. */
    const chatDuring = async (work) => {
      const times = [];
      let done = false;
      let n = 0;
      const chatting = (async () => {
        while (!done) {
          const answer = await chat(n++);
          if (answer.status !== 200) throw new Error(`Widget chat answered ${answer.status}: ${answer.text}`);
          times.push(answer.ms);
          await sleep(50);
        }
      })();
      await work();
      done = true;
      await chatting;
      return times;
    };

    await Promise.all(Array.from({ length: 20 }, (_, i) => chat(`warm${i}`)));
    const idle = await chatDuring(() => sleep(4000));

    const created = await call(`${base}/api/channels`, {
      headers,
      body: { subaccountId: agent.subaccountId, type: 'sms', buildId: agent.id, sendRatePerSecond: 0 },
    });
    if (created.status !== 201) throw new Error(`Creating the SMS connection failed: ${created.text}`);
    const { connectionId } = JSON.parse(created.text);

    const csv = `phone,name\n${Array.from({ length: CONTACTS }, (_, i) => `+1415${String(2000000 + i)},Contact ${i}`).join('\n')}\n`;
    const form = new FormData();
    form.append('mapping', JSON.stringify({ phone: 'phone', name: 'name', addTags: ['bench'] }));
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
    const imported = await fetch(`${base}/api/channels/${agent.subaccountId}/contacts/import`, {
      method: 'POST',
      headers,
      body: form,
    });
    const report = await imported.json();
    if (imported.status !== 200 || report.imported !== CONTACTS)
      throw new Error(`Import failed: ${JSON.stringify(report).slice(0, 300)}`);

    const campaign = JSON.parse(
      (
        await call(`${base}/api/channels/${connectionId}/campaigns`, {
          headers,
          body: { name: 'Bench', audience: { type: 'tags', tags: ['bench'] }, message: 'Hi {{name}}, spring offer!' },
        })
      ).text,
    );
    let final = null;
    const during = await chatDuring(async () => {
      const started = await call(`${base}/api/channels/${connectionId}/campaigns/${campaign.campaignId}/start`, {
        method: 'POST',
        headers,
      });
      if (started.status !== 200) throw new Error(`Start failed: ${started.text}`);
      for (let i = 0; i < 1200; i += 1) {
        await sleep(250);
        const current = JSON.parse(
          (await call(`${base}/api/channels/${connectionId}/campaigns/${campaign.campaignId}`, { headers })).text,
        );
        if (current.status === 'completed') {
          final = current;
          break;
        }
      }
    });
    if (!final) throw new Error('The campaign did not complete within 5 minutes');
    const seconds = (Date.parse(final.completedAt) - Date.parse(final.startedAt)) / 1000;
    const mps = final.figures.sent / seconds;
    const added = percentile(during, 99) - percentile(idle, 99);
    console.log(`[${label}]`);
    console.log(
      `campaign: ${final.figures.sent} of ${final.figures.total} sent in ${seconds.toFixed(2)} s = ${mps.toFixed(0)} messages/s; target >= ${TARGET_MPS}: ${mps >= TARGET_MPS ? 'meets' : 'MISSES'}`,
    );
    console.log(
      `widget chat: idle p99 ${percentile(idle, 99).toFixed(1)} ms (${idle.length} chats), during the campaign p99 ${percentile(during, 99).toFixed(1)} ms (${during.length} chats): added ${added.toFixed(1)} ms; target <= ${TARGET_ADDED_P99_MS}: ${added <= TARGET_ADDED_P99_MS ? 'meets' : 'MISSES'}`,
    );
    if (mps < TARGET_MPS || added > TARGET_ADDED_P99_MS) failed = true;
  } finally {
    // Its database stays up until the server has drained and written what it gathered.
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

await runOn('embedded database (PGlite)', {});
const postgres = await startPostgres(process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) + 1 : await freePort());
if (postgres) {
  try {
    await runOn('PostgreSQL', { DATABASE_URL: postgres.url });
  } finally {
    postgres.stop();
  }
}
stub.close?.();
process.exitCode = failed ? 1 : 0;
