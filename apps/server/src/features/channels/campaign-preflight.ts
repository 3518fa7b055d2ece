import {
  nextSendTime,
  smsEncoding,
  type TCampaignAudience,
  type TCampaignAudienceSize,
  type TCampaignEstimate,
} from '@switchboard/core';
import { and, eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client';
import { incrementCounters } from '../../platform/counters';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { isConnectionPaused } from '../connections/pauses';
import { renderFor } from './campaign-render';
import { ownedCampaign } from './campaign-report';
import { withShortLinks } from './campaign-tracking';
import { audienceSql } from './campaigns';
import { type Channel, ownedChannel } from './connections';
import { messagingSettings } from './contacts';
import { insideWhatsappWindow, PAUSED_CHANNEL_MESSAGE, queueOutbound, SESSION_EXPIRED_MESSAGE } from './outbound';
import { requireE164 } from './phone';
import { refuseSandboxOff } from './sandbox-mode';
import { contacts } from './schema';
import { priceOf } from './segment-price';
import { isSuppressed, OPTED_OUT_MESSAGE, suppressionSkipSql } from './suppressions';

type CampaignRow = Awaited<ReturnType<typeof ownedCampaign>>;

/** Recipients whose messages are rendered and counted one by one; a larger audience is counted over this many and scaled. */
const SEGMENT_SAMPLE = 1000;
/** Test sends one connection may make in TEST_SEND_WINDOW_SECONDS. */
export const TEST_SEND_LIMIT = 5;
const TEST_SEND_WINDOW_SECONDS = 600;

const audienceOf = (subaccountId: string, row: CampaignRow, channel: Channel) => {
  const audience = audienceSql(subaccountId, row.audience as TCampaignAudience);
  return sql`SELECT c.id, c.phone, c.name, c.attributes, c.time_zone, ${suppressionSkipSql(channel, sql`c.phone`)} AS skip
    FROM ${contacts} c WHERE ${audience}`;
};

/**
 * The audience as it stands, broken down: every contact, those skipped as suppressed (a send failed
 * for good) or opted out, the recipients, and how many of them quiet hours would hold if sent now.
 */
const breakdown = async (deps: Deps, subaccountId: string, row: CampaignRow, channel: Channel, now = new Date()) => {
  const groups = rowsOf<{ skip: string | null; time_zone: string | null; count: number }>(
    await deps.db.execute(sql`
      SELECT a.skip, a.time_zone, count(*)::int AS count FROM (${audienceOf(subaccountId, row, channel)}) a
      GROUP BY a.skip, a.time_zone`),
  );
  const quiet = row.quietStart && row.quietEnd ? { start: row.quietStart, end: row.quietEnd } : null;
  const size: TCampaignAudienceSize = {
    contacts: 0,
    suppressed: 0,
    optedOut: 0,
    recipients: 0,
    heldByQuietHours: 0,
  };
  for (const group of groups) {
    size.contacts += group.count;
    if (group.skip === 'SUPPRESSED') size.suppressed += group.count;
    else if (group.skip === 'OPTED_OUT') size.optedOut += group.count;
    else {
      size.recipients += group.count;
      if (quiet && nextSendTime(now, group.time_zone ?? row.timeZone, quiet).getTime() > now.getTime())
        size.heldByQuietHours += group.count;
    }
  }
  return size;
};

export const campaignAudienceBreakdown = async (deps: Deps, subaccountId: string, campaignId: string) => {
  const row = await ownedCampaign(deps.db, subaccountId, campaignId);
  const channel = await ownedChannel(deps.db, subaccountId, row.connectionId);
  return breakdown(deps, subaccountId, row, channel);
};

/** Billed units of one rendered message: SMS segments as carriers count them; one per WhatsApp message. */
const unitsOf = (channel: Channel, body: string) =>
  channel.connection.type === 'whatsapp'
    ? { encoding: 'whatsapp' as const, segments: 1 }
    : { encoding: smsEncoding(body).encoding, segments: smsEncoding(body).segments };

/**
 * What sending the campaign now costs: each recipient's message rendered and counted as sending
 * counts it (up to SEGMENT_SAMPLE of them; a larger audience is scaled from them), times the
 * price per segment entered in the connection's settings. Campaigns spend no platform credits.
 */
export const campaignEstimate = async (
  deps: Deps,
  subaccountId: string,
  campaignId: string,
): Promise<TCampaignEstimate> => {
  const row = await ownedCampaign(deps.db, subaccountId, campaignId);
  const channel = await ownedChannel(deps.db, subaccountId, row.connectionId);
  const audience = await breakdown(deps, subaccountId, row, channel);
  const sample = rowsOf<{ phone: string; name: string | null; attributes: Record<string, string> }>(
    await deps.db.execute(sql`
      SELECT a.phone, a.name, a.attributes FROM (${audienceOf(subaccountId, row, channel)}) a
      WHERE a.skip IS NULL ORDER BY a.id LIMIT ${SEGMENT_SAMPLE}`),
  );
  const campaign = { message: row.message, whatsappTemplate: row.whatsappTemplate ?? null };
  let counted = 0;
  let most = 0;
  let ucs2 = false;
  for (const contact of sample) {
    const rendered = renderFor(campaign, { ...contact, attributes: contact.attributes ?? {} });
    // Links go out as short links: the segments are counted with them.
    const units = unitsOf(channel, rendered.contentSid ? rendered.body : withShortLinks(deps, rendered.body));
    counted += units.segments;
    most = Math.max(most, units.segments);
    if (units.encoding === 'UCS-2') ucs2 = true;
  }
  const sampled = sample.length < audience.recipients;
  const segments = sampled && sample.length ? Math.round((counted / sample.length) * audience.recipients) : counted;
  const micros = channel.account.segmentPriceMicros;
  const currency = channel.account.segmentPriceCurrency;
  const encoding = channel.connection.type === 'whatsapp' ? 'whatsapp' : ucs2 ? 'UCS-2' : 'GSM-7';
  return {
    audience,
    encoding,
    segmentsPerMessage: most || unitsOf(channel, row.message).segments,
    segments,
    sampled,
    pricePerSegment: micros ? { amount: priceOf(micros), currency } : null,
    cost: micros ? { amount: ((segments * micros) / 1_000_000).toFixed(4), currency } : null,
    credits: 0,
    sandbox: channel.account.transport === 'sandbox',
  };
};

/**
 * Sends the campaign's message once to a number the agency gives (its own phone), through the
 * connection's transport as a live message, outside the campaign: no recipient, no figure. A
 * sandbox connection sends it to the sandbox phone only. Limited per connection.
 */
export const testSendCampaign = async (deps: Deps, subaccountId: string, campaignId: string, rawTo: string) => {
  const row = await ownedCampaign(deps.db, subaccountId, campaignId);
  const channel = await ownedChannel(deps.db, subaccountId, row.connectionId);
  const settings = await messagingSettings(deps.db, subaccountId);
  const to = requireE164(rawTo, 'to', settings.defaultCountry);
  if (row.whatsappTemplate)
    throw new AppError(
      'VALIDATION_ERROR',
      'A WhatsApp template campaign cannot be sent as a test; preview its text here, or send it to a list holding only your number.',
      { field: 'to' },
    );
  refuseSandboxOff(deps.env, channel.account.transport);
  if (await isConnectionPaused(deps, channel.connection.id))
    throw new AppError('CONNECTION_INACTIVE', PAUSED_CHANNEL_MESSAGE, { reason: 'connection_paused' });
  if (await isSuppressed(deps.db, channel, to))
    throw new AppError('MESSAGE_SEND_FAILED', OPTED_OUT_MESSAGE, { status: 409, reason: 'opted_out' });
  if (channel.connection.type === 'whatsapp' && !(await insideWhatsappWindow(deps, channel.connection.id, to)))
    throw new AppError('SESSION_EXPIRED', SESSION_EXPIRED_MESSAGE);
  const [used = 0] = await incrementCounters(deps, [
    {
      key: `campaign-test:${channel.connection.id}`,
      window: String(Math.floor(Date.now() / (TEST_SEND_WINDOW_SECONDS * 1000))),
      ttlSeconds: TEST_SEND_WINDOW_SECONDS,
    },
  ]);
  if (used > TEST_SEND_LIMIT)
    throw new AppError(
      'RATE_LIMIT_EXCEEDED',
      `At most ${TEST_SEND_LIMIT} test sends per connection every ${TEST_SEND_WINDOW_SECONDS / 60} minutes. Try again later.`,
      { reason: 'test_send_limit' },
    );
  const known = await deps.db
    .select({ phone: contacts.phone, name: contacts.name, attributes: contacts.attributes })
    .from(contacts)
    .where(and(eq(contacts.subaccountId, subaccountId), eq(contacts.phone, to)))
    .limit(1);
  const body = renderFor(
    { message: row.message, whatsappTemplate: null },
    known[0] ?? { phone: to, name: null, attributes: {} },
  ).body;
  if (!body.trim() && !row.mediaUrl)
    throw new AppError('VALIDATION_ERROR', 'The campaign has no message to send yet.', { field: 'message' });
  const messageIds = await queueOutbound(deps, channel, {
    to,
    parts: [body],
    mediaUrls: row.mediaUrl ? [row.mediaUrl] : [],
    key: `campaign-test:${row.id}:${Date.now()}`,
    source: 'person',
    origin: 'live',
  });
  return { to, body, messageIds, sandbox: channel.account.transport === 'sandbox' };
};
