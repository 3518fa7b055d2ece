#!/usr/bin/env node
/**
 * Chaos benchmark: does work survive processes dying under it?
 *
 * Three processes of the built server on PostgreSQL (a scratch database on 127.0.0.1:5432, dropped
 * after) and Redis (127.0.0.1:6379, keys under a prefix of the run's own, deleted after) behind
 * HAProxy (Debian's package, installed when missing), checked on /api/health/ready when the server
 * has it, /api/health otherwise. Through the load balancer: an SMS campaign to --recipients
 * contacts through a local Twilio stand-in (TWILIO_API_URL), widget chats at --chat-rate a second
 * on a stub model, an evaluation run of --eval-items conversations on a stub model, webhook
 * deliveries of every event to a local receiver, and three inbox event streams held open. For
 * --duration seconds, every 5-10 s one process is killed with kill -9 and started again; once,
 * instead, one is stopped with SIGTERM (and started again; nothing is killed while it drains, and
 * the faults go on that much longer). Then every process runs until the campaign and the run have
 * finished and no webhook is pending (at most --settle seconds).
 *
 * Figures and targets: messages sent exactly once (the stand-in's log against the contacts: 0 lost,
 * 0 duplicated); widget chats failed through the load balancer (all, and during the SIGTERM drain:
 * target 0); evaluation conversations stored exactly once (rows per item in the database: every
 * item once); webhook events delivered at least once under a stable id (ids at the receiver against
 * the ids recorded in the database); time from SIGTERM to the process's exit (target <= 10 s).
 *
 * npm run bench -- chaos [--recipients 10000] [--duration 180] [--chat-rate 5] [--eval-items 600]
 *   [--send-rate N] [--settle 300] (the defaults; --recipients 2000 --duration 60 is a quick run;
 *   the send rate is set so the campaign spans most of the faults). BENCH_DATABASE_URL and
 *   BENCH_REDIS_URL point elsewhere; BENCH_SERVER_ENTRY runs another build of the server.
 * Everything it starts is stopped, and the database and keys removed, also on failure or Ctrl+C;
 * the processes' and HAProxy's logs stay in the run's folder, printed at the end.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cleanUp, cleanUpOnExit, onCleanup } from './lib/cleanup.mjs';
import { startCluster, startPostgresAndRedis, waitAllUp } from './lib/cluster.mjs';
import { conversationKeys, questionsFor, runPayload, startEvaluationStub } from './lib/evaluation.mjs';
import { ensureHaproxy } from './lib/haproxy.mjs';
import { STANDIN_ACCOUNT_SID, STANDIN_AUTH_TOKEN, startTwilioStandin } from './lib/twilio-standin.mjs';
import { startWebhookReceiver } from './lib/webhook-receiver.mjs';
import { call, SERVER_ENTRY, setupWidget, sleep, startStubModel } from './widget-support.js';

const TARGET_DRAIN_S = 10;
/** How long a process stopped with SIGTERM may take before it is killed (compose's grace period). */
const TERM_LIMIT_MS = 30_000;
/** After the process exits, how long its failed requests still count as the drain's (HAProxy's check interval). */
const DRAIN_TAIL_MS = 1000;
const PROCESSES = 3;
const SENDER = '+15550100200';
const WEBHOOK_EVENTS = [
  'conversation.started',
  'message.received',
  'message.sent',
  'lead.captured',
  'evaluation.completed',
  'campaign.completed',
];

const options = (() => {
  const parsed = (() => {
    try {
      return parseArgs({
        options: {
          recipients: { type: 'string', default: '10000' },
          duration: { type: 'string', default: '180' },
          'chat-rate': { type: 'string', default: '5' },
          'eval-items': { type: 'string', default: '600' },
          'send-rate': { type: 'string' },
          settle: { type: 'string', default: '300' },
        },
      });
    } catch (error) {
      console.error(error.message);
      process.exit(2);
    }
  })();
  const { values } = parsed;
  const number = (name, min, max) => {
    const value = Number(values[name]);
    if (!Number.isFinite(value) || value < min || value > max) {
      console.error(`--${name} must be a number from ${min} to ${max}`);
      process.exit(2);
    }
    return value;
  };
  const recipients = Math.round(number('recipients', 1, 1_000_000));
  const duration = number('duration', 20, 7200);
  return {
    recipients,
    duration,
    chatRate: number('chat-rate', 0.1, 200),
    evalItems: Math.round(number('eval-items', 2, 20_000)),
    // The campaign spans most of the faults unless told otherwise.
    sendRate: values['send-rate']
      ? Math.round(number('send-rate', 0, 1000))
      : Math.min(1000, Math.max(1, Math.ceil(recipients / (duration * 0.8)))),
    settle: number('settle', 10, 7200),
  };
})();

const started = performance.now();
const clock = () => `${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`;
const note = (text) => console.log(`${clock()}  ${text}`);
const fmt = (n) => n.toLocaleString('en-US');
const pick = (list) => list[Math.floor(Math.random() * list.length)];

/** A request through the load balancer that must succeed (setup and progress reads). */
const must = async (label, url, request, expected = [200, 201, 202]) => {
  const answer = await call(url, { timeoutMs: 60_000, ...request });
  if (!expected.includes(answer.status))
    throw new Error(`${label} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return answer.text ? JSON.parse(answer.text) : {};
};

// ---- Infrastructure --------------------------------------------------------------------------

const startInfrastructure = async () => {
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run npm run build first`);
  if (!ensureHaproxy()) throw new Error('HAProxy is needed');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-chaos-'));
  const { database, db, redisUrl, redisPrefix } = await startPostgresAndRedis('sb_chaos');
  const twilio = await startTwilioStandin();
  const chatModel = await startStubModel();
  const evalModel = await startEvaluationStub({ latencyMs: 200 });
  const receiver = await startWebhookReceiver();
  onCleanup('close the stand-ins', () => {
    for (const server of [twilio, chatModel, evalModel, receiver]) server.close();
  });
  return { dir, database, db, redisUrl, redisPrefix, twilio, chatModel, evalModel, receiver };
};

const startChaosCluster = (infra) =>
  startCluster({
    infra,
    processes: PROCESSES,
    dir: infra.dir,
    stubUrl: infra.chatModel.url,
    env: { TWILIO_API_URL: infra.twilio.url, PRIVATE_URL_ALLOWLIST: '127.0.0.1', EVAL_CONCURRENCY: '8' },
  });

// ---- The agency's work -----------------------------------------------------------------------

const phones = (count) => Array.from({ length: count }, (_, i) => `+1415${String(2_000_000 + i)}`);

const setupAgency = async (lbUrl, infra, contacts) => {
  const widget = await setupWidget(lbUrl, { dailyLimit: 1_000_000 });
  const { cookie, subaccountId: sub } = widget;
  const headers = { cookie, origin: lbUrl };
  const endpoint = await must('Creating the webhook endpoint', `${lbUrl}/api/connect/${sub}/webhooks`, {
    headers,
    body: { url: infra.receiver.url, description: 'Chaos benchmark', events: WEBHOOK_EVENTS },
  });
  await must('Saving the evaluation stub', `${lbUrl}/api/connect/${sub}/providers/compatible`, {
    method: 'PUT',
    headers,
    body: { baseUrl: infra.evalModel.url },
  });
  const channel = await must('Creating the SMS connection', `${lbUrl}/api/channels`, {
    headers,
    body: {
      subaccountId: sub,
      type: 'sms',
      buildId: widget.agentId,
      twilio: { accountSid: STANDIN_ACCOUNT_SID, authToken: STANDIN_AUTH_TOKEN },
      sender: { phoneNumber: SENDER },
      sendRatePerSecond: options.sendRate,
    },
  });
  const csv = `phone,name\n${contacts.map((phone, i) => `${phone},Contact ${i}`).join('\n')}\n`;
  const form = new FormData();
  form.append('mapping', JSON.stringify({ phone: 'phone', name: 'name', addTags: ['chaos'] }));
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
  const imported = await fetch(`${lbUrl}/api/channels/${sub}/contacts/import`, { method: 'POST', headers, body: form });
  const report = await imported.json();
  if (imported.status !== 200 || report.imported !== contacts.length)
    throw new Error(`Importing the contacts failed: ${JSON.stringify(report).slice(0, 300)}`);
  const campaign = await must('Creating the campaign', `${lbUrl}/api/channels/${channel.connectionId}/campaigns`, {
    headers,
    body: { name: 'Chaos', audience: { type: 'tags', tags: ['chaos'] }, message: 'Hi {{name}}, spring offer!' },
  });
  return {
    headers,
    sub,
    widget,
    endpointId: endpoint.id,
    campaignUrl: `${lbUrl}/api/channels/${channel.connectionId}/campaigns/${campaign.campaignId}`,
  };
};

const answered = (text) => {
  try {
    return Boolean(JSON.parse(text).message);
  } catch {
    return false;
  }
};

/**
 * Widget chats at `rate` a second, each from a new visitor, whatever the answers take (at most 200
 * in flight). Each is recorded with its start, end and outcome. Each opens its own connection: a
 * kept-alive one that the load balancer closes as idle just when a request leaves would fail
 * that request for a reason that is not a fault.
 */
const startChats = (lbUrl, widgetId, rate) => {
  const records = [];
  const fresh = new http.Agent({ keepAlive: false, maxSockets: 256 });
  const url = `${lbUrl}/api/widget/${widgetId}/chat`;
  let n = 0;
  let inFlight = 0;
  let skipped = 0;
  const pending = new Set();
  const timer = setInterval(() => {
    if (inFlight >= 200) {
      skipped += 1;
      return;
    }
    const record = { start: performance.now(), end: 0, outcome: 'ok', detail: '' };
    records.push(record);
    inFlight += 1;
    const i = n++;
    const request = call(url, {
      body: { message: `Visitor ${i}: do you install solar panels?`, contactIdentifier: `chaos_visitor_${i}` },
      timeoutMs: 90_000,
      agent: fresh,
    })
      .then((answer) => {
        if (answer.status === 200 && answered(answer.text)) return;
        const fromLb = /^<html>/i.test(answer.text.trim()) && answer.status >= 500;
        record.outcome = fromLb ? 'lb' : 'app';
        record.detail = fromLb ? `${answer.status} from HAProxy` : `${answer.status} ${answer.text.slice(0, 120)}`;
      })
      .catch((error) => {
        record.outcome = 'network';
        record.detail = error.code ?? error.message;
      })
      .finally(() => {
        record.end = performance.now();
        inFlight -= 1;
        pending.delete(request);
      });
    pending.add(request);
  }, 1000 / rate);
  return {
    records,
    skipped: () => skipped,
    stop: async () => {
      clearInterval(timer);
      await Promise.all(pending);
    },
  };
};

/** Inbox event streams held open as agency staff would, opened again 1 s after each close. */
const holdStreams = (url, cookie, count) => {
  const stats = { opened: 0, closed: 0 };
  let stopped = false;
  const requests = new Set();
  const open = () => {
    if (stopped) return;
    let reopened = false;
    const again = () => {
      if (reopened) return;
      reopened = true;
      requests.delete(request);
      if (!stopped) {
        stats.closed += 1;
        setTimeout(open, 1000);
      }
    };
    const request = http.get(url, { headers: { cookie, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode === 200) stats.opened += 1;
      res.resume();
      res.on('close', again);
      res.on('error', again);
    });
    request.on('error', again);
    requests.add(request);
  };
  for (let i = 0; i < count; i += 1) open();
  return {
    stats,
    stop: () => {
      stopped = true;
      for (const request of requests) request.destroy();
    },
  };
};

// ---- Faults ----------------------------------------------------------------------------------

/** The answering process with the most connections open through HAProxy (streams, requests under way). */
const busiest = async (fleet, lb) => {
  const states = await lb.states();
  const sessions = (slot) => states[slot.name]?.sessions ?? 0;
  const [slot] = fleet.slots.filter((s) => s.up).sort((a, b) => sessions(b) - sessions(a));
  return slot && { slot, sessions: sessions(slot) };
};

/**
 * For `seconds` (plus the SIGTERM's drain): every 5-10 s kills one process with kill -9 (never the
 * last one answering) and starts it again; once, at 40 % of the time, stops one with SIGTERM
 * instead (when HAProxy sees every process up, the one with the most connections open), and starts
 * it again after it exits.
 */
const runFaults = async ({ fleet, lb }, seconds) => {
  let end = performance.now() + seconds * 1000;
  const termAt = performance.now() + seconds * 400;
  const faults = { kills: 0, skipped: 0, term: null };
  const restart = (slot) =>
    fleet.start(slot).then(
      () => note(`${slot.name} answers again`),
      (error) => note(`${slot.name} failed to start: ${error.message}`),
    );
  while (performance.now() < end) {
    const wait = 5000 + Math.random() * 5000;
    if (performance.now() + wait >= end) {
      await sleep(Math.max(0, end - performance.now()));
      break;
    }
    await sleep(wait);
    if (!faults.term && performance.now() >= termAt) {
      await Promise.all(fleet.slots.map((slot) => slot.starting?.catch(() => undefined)));
      await waitAllUp(lb, PROCESSES).catch(() => undefined);
      const target = await busiest(fleet, lb);
      if (!target) continue;
      const { slot } = target;
      note(`SIGTERM ${slot.name} (pid ${slot.child.pid}, ${target.sessions} connections open through HAProxy)`);
      const term = await fleet.terminate(slot, TERM_LIMIT_MS);
      faults.term = { ...term, name: slot.name };
      // No process is killed during the drain (its failed requests are its own): the faults go on longer.
      end += term.exitedAt - term.signalledAt;
      note(
        term.forced
          ? `${slot.name} had not exited ${TERM_LIMIT_MS / 1000} s after SIGTERM: killed`
          : `${slot.name} exited ${((term.exitedAt - term.signalledAt) / 1000).toFixed(1)} s after SIGTERM (code ${term.code})`,
      );
      void restart(slot);
      continue;
    }
    const up = fleet.slots.filter((slot) => slot.up);
    if (up.length < 2) {
      faults.skipped += 1;
      note(`no kill: only ${up.length} process answers`);
      continue;
    }
    const slot = pick(up);
    note(`kill -9 ${slot.name} (pid ${slot.child.pid})`);
    await fleet.kill(slot);
    faults.kills += 1;
    void restart(slot);
  }
  return faults;
};

// ---- Settling and figures --------------------------------------------------------------------

const runStatus = (lbUrl, runId, headers) =>
  must('Reading the run', `${lbUrl}/api/evaluation/runs/${runId}`, { headers });

/** Waits until the campaign and the run have finished and no webhook delivery is pending, or `seconds` pass. */
const settle = async ({ lbUrl, db, agency, runId }, seconds) => {
  const until = performance.now() + seconds * 1000;
  let state = {};
  for (;;) {
    const campaign = await must('Reading the campaign', agency.campaignUrl, { headers: agency.headers }).catch(
      () => null,
    );
    const run = await runStatus(lbUrl, runId, agency.headers).catch(() => null);
    const pending = await db
      .query("SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending'", [
        agency.endpointId,
      ])
      .then((result) => result.rows[0].n)
      .catch(() => null);
    state = { campaign, run, pending };
    const campaignDone = campaign && !['draft', 'scheduled', 'sending'].includes(campaign.status);
    const runDone = run && ['completed', 'failed', 'cancelled'].includes(run.status);
    if (campaignDone && runDone && pending === 0) return { ...state, settled: true };
    if (performance.now() > until) return { ...state, settled: false };
    await sleep(2000);
  }
};

const evaluationFigures = async (db, runId, questions) => {
  const expectedKeys = conversationKeys(questions);
  const { rows } = await db.query(
    'SELECT question_key, variation, count(*)::int AS n FROM evaluation_conversations WHERE run_id = $1 GROUP BY 1, 2',
    [runId],
  );
  const stored = new Map(rows.map((row) => [`${row.question_key}#${row.variation}`, row.n]));
  const expected = new Set(expectedKeys);
  return {
    calls: questions.calls,
    expected: expected.size,
    once: [...expected].filter((key) => stored.get(key) === 1).length,
    missing: [...expected].filter((key) => !stored.has(key)).length,
    duplicated: [...stored.values()].filter((n) => n > 1).length,
    unknown: [...stored.keys()].filter((key) => !expected.has(key)).length,
  };
};

const webhookFigures = async (db, endpointId, receiver) => {
  const { rows } = await db.query('SELECT DISTINCT event_id FROM webhook_deliveries WHERE endpoint_id = $1', [
    endpointId,
  ]);
  return receiver.figures(rows.map((row) => row.event_id));
};

const chatFigures = (records, term) => {
  const failed = records.filter((record) => record.outcome !== 'ok');
  const windowEnd = term ? term.exitedAt + DRAIN_TAIL_MS : 0;
  const inDrain = (record) => term && record.start <= windowEnd && record.end >= term.signalledAt;
  const kinds = {};
  for (const record of failed) kinds[record.detail] = (kinds[record.detail] ?? 0) + 1;
  return {
    sent: records.length,
    failed: failed.length,
    kinds,
    // When each failed request left, on the clock of the run's notes.
    times: failed.map((record) => `${((record.start - started) / 1000).toFixed(1)} s`),
    drainSent: records.filter(inDrain).length,
    drainFailed: failed.filter(inDrain).length,
  };
};

const verdict = (ok) => (ok ? 'PASS' : 'FAIL');
const row = (label, figure, target, ok) => {
  console.log(`  ${label.padEnd(34)} ${figure}`);
  console.log(`  ${''.padEnd(34)} target ${target}: ${verdict(ok)}`);
  return ok;
};

const report = ({ infra, cluster, faults, settled, contacts, chats, evaluation, webhooks }) => {
  const sms = infra.twilio.figures(contacts);
  const drainS = faults.term && !faults.term.forced ? (faults.term.exitedAt - faults.term.signalledAt) / 1000 : null;
  const kinds = Object.entries(chats.kinds)
    .map(([kind, n]) => `${n} × ${kind}`)
    .join('; ');
  console.log(`\nChaos benchmark: ${PROCESSES} app processes on PostgreSQL and Redis behind HAProxy`);
  console.log(
    `  health checks on ${cluster.checkPath}${cluster.checkPath === '/api/health' ? ' (the server has no /api/health/ready)' : ''}`,
  );
  console.log(
    `  faults over ${options.duration} s and the drain: ${faults.kills} × kill -9${faults.skipped ? ` (${faults.skipped} left out: fewer than two processes answered)` : ''}, SIGTERM to ${faults.term?.name ?? 'none'}; starts per process: ${cluster.fleet.slots.map((slot) => `${slot.name} ${slot.starts}`).join(', ')}`,
  );
  console.log(
    `  campaign: ${fmt(contacts.length)} recipients at ${options.sendRate}/s, status ${settled.campaign?.status ?? 'unknown'}${settled.campaign ? `, its figures ${JSON.stringify(settled.campaign.figures)}` : ''}`,
  );
  console.log(
    `  evaluation run: status ${settled.run?.status ?? 'unknown'}${settled.run?.error ? ` (${settled.run.error})` : ''}, ${fmt(infra.evalModel.stats.calls)} model calls (${fmt(evaluation.calls)} without faults); webhook deliveries pending: ${settled.pending ?? 'unknown'}${settled.settled ? '' : `; NOT settled after ${options.settle} s`}`,
  );
  console.log('');
  const results = [
    row(
      'messages sent exactly once',
      `${fmt(sms.accepted)} accepted by the stand-in: lost ${fmt(sms.lost)}, duplicated ${fmt(sms.duplicated)} (${fmt(sms.extra)} extra sends); ${sms.strangers} to other numbers; ${fmt(sms.keyed)} carried an idempotency key (${sms.repeatedKeys} keys sent twice)`,
      '0 lost, 0 duplicated',
      sms.lost === 0 && sms.duplicated === 0,
    ),
  ];
  console.log(
    `  ${'widget chats through HAProxy'.padEnd(34)} ${fmt(chats.sent)} at ${options.chatRate}/s, failed ${fmt(chats.failed)}${kinds ? ` (${kinds})` : ''}`,
  );
  if (chats.times.length)
    console.log(
      `  ${''.padEnd(34)} sent at ${chats.times.slice(0, 12).join(', ')}${chats.times.length > 12 ? ', …' : ''}`,
    );
  results.push(
    row(
      '  failed during the SIGTERM drain',
      faults.term ? `${chats.drainFailed} of ${chats.drainSent}` : 'no SIGTERM was sent',
      '0',
      Boolean(faults.term) && chats.drainFailed === 0,
    ),
  );
  results.push(
    evaluation.error
      ? row('evaluation items stored once', `not readable: ${evaluation.error}`, 'every item once', false)
      : row(
          'evaluation items stored once',
          `${fmt(evaluation.once)} of ${fmt(evaluation.expected)}: missing ${evaluation.missing}, stored twice or more ${evaluation.duplicated}, unknown ${evaluation.unknown}`,
          'every item exactly once',
          evaluation.once === evaluation.expected && evaluation.duplicated === 0 && evaluation.unknown === 0,
        ),
  );
  results.push(
    webhooks.error
      ? row('webhook events delivered', `not readable: ${webhooks.error}`, 'every event, stable id', false)
      : row(
          'webhook events delivered',
          `${fmt(webhooks.recorded)} recorded, ${fmt(webhooks.received)} ids received: missing ${webhooks.missing}, ids never recorded ${webhooks.unknown}, one event under two ids ${webhooks.unstable} (${webhooks.redelivered} delivered more than once)`,
          'every recorded event at least once, one id each',
          webhooks.missing === 0 && webhooks.unknown === 0 && webhooks.unstable === 0,
        ),
  );
  results.push(
    row(
      'time to drain on SIGTERM',
      !faults.term
        ? 'no SIGTERM was sent'
        : drainS === null
          ? `still running ${TERM_LIMIT_MS / 1000} s after SIGTERM (killed)`
          : `${drainS.toFixed(1)} s`,
      `<= ${TARGET_DRAIN_S} s`,
      drainS !== null && drainS <= TARGET_DRAIN_S,
    ),
  );
  console.log(`\n  logs of the app processes and HAProxy: ${infra.dir}/{app*,haproxy}.log`);
  const passed = results.every(Boolean);
  console.log(passed ? 'PASS' : 'FAIL');
  return passed;
};

// ---- The run ---------------------------------------------------------------------------------

const main = async () => {
  cleanUpOnExit();
  console.log(
    `Chaos: ${fmt(options.recipients)} recipients at ${options.sendRate}/s, ${options.duration} s of faults, widget chats at ${options.chatRate}/s, ${fmt(options.evalItems)} evaluation items; server built ${statSync(SERVER_ENTRY).mtime.toISOString()}`,
  );
  const infra = await startInfrastructure();
  onCleanup('remove the data folders', () => {
    for (let i = 1; i <= PROCESSES; i += 1)
      rmSync(path.join(infra.dir, `app${i}-data`), { recursive: true, force: true });
  });
  const cluster = await startChaosCluster(infra);
  const { lbUrl } = cluster;
  note(`${PROCESSES} processes answer behind HAProxy at ${lbUrl}; checks on ${cluster.checkPath}`);
  const contacts = phones(options.recipients);
  const agency = await setupAgency(lbUrl, infra, contacts);
  note(`agency ready: ${fmt(contacts.length)} contacts imported`);

  const chats = startChats(lbUrl, agency.widget.widgetId, options.chatRate);
  const streams = holdStreams(
    `${lbUrl}/api/connections/${agency.widget.connectionId}/conversations/events`,
    agency.headers.cookie,
    PROCESSES,
  );
  await must('Starting the campaign', `${agency.campaignUrl}/start`, { method: 'POST', headers: agency.headers });
  const questions = questionsFor(options.evalItems * 2.5, { checks: null });
  const run = await must(
    'Starting the evaluation run',
    `${lbUrl}/api/evaluation/run/evaluationdata`,
    {
      headers: { ...agency.headers, 'x-subaccount-id': agency.sub },
      body: runPayload({
        evaluationId: `chaos-${Date.now()}`,
        name: 'Chaos',
        model: 'compatible:stub-model',
        questions,
      }),
    },
    [202],
  );
  note('campaign, evaluation run, chats and webhooks under way; faults begin');

  const faults = await runFaults(cluster, options.duration);
  await chats.stop();
  streams.stop();
  note('faults over; waiting for every process, the campaign, the run and the webhooks');
  await cluster.fleet.allUp();
  const settled = await settle({ lbUrl, db: infra.db, agency, runId: run.runId }, options.settle);
  // Sends already on their way when the last status was read.
  await sleep(2000);
  note(`settled${settled.settled ? '' : ' (timed out)'}; inbox streams opened ${streams.stats.opened} times`);

  const evaluation = await evaluationFigures(infra.db, run.runId, questions).catch((error) => ({
    error: error.message,
    calls: questions.calls,
  }));
  const webhooks = await webhookFigures(infra.db, agency.endpointId, infra.receiver).catch((error) => ({
    error: error.message,
  }));
  return report({
    infra,
    cluster,
    faults,
    settled,
    contacts,
    chats: chatFigures(chats.records, faults.term),
    evaluation,
    webhooks,
  });
};

let passed = false;
try {
  passed = await main();
} catch (error) {
  console.error(`\nChaos benchmark failed: ${error.message}`);
} finally {
  await cleanUp();
}
process.exit(passed ? 0 : 1);
