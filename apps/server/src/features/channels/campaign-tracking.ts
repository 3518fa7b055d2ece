import { randomBytes } from 'node:crypto';
import {
  SHORT_LINK_CODE_LENGTH,
  SHORT_LINK_PREFIX,
  type TCampaignConversion,
  type TCampaignConversionInput,
  type TCampaignReplies,
  type TCampaignTracking,
} from '@switchboard/core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { ownedCampaign, toCampaign } from './campaign-report';
import { copySteps } from './campaign-steps';
import { leaveOnClick, leaveOnGoal } from './campaign-steps-leave';
import { ownedChannel } from './connections';
import { REPLY_ATTRIBUTION_MS } from './inbound';
import { requireE164 } from './phone';
import { campaignConversions, campaignLinks, campaignRecipients, campaigns, channelMessages, contacts } from './schema';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An unguessable short code: base62 characters from a secure random source, without modulo bias. */
export const newLinkCode = (length = SHORT_LINK_CODE_LENGTH): string => {
  let code = '';
  while (code.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes at or above it would favour the first characters.
      if (byte < 248 && code.length < length) code += BASE62[byte % 62];
    }
  }
  return code;
};

/** http(s) addresses in a message, without the punctuation that usually ends a sentence. */
const URL_PATTERN = /https?:\/\/[^\s<>"'`]+/gi;
const TRAILING = /[.,;:!?)\]}'"]+$/;

export const linksIn = (text: string): string[] => {
  const found = new Set<string>();
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0].replace(TRAILING, '');
    if (url.length > 'https://'.length) found.add(url);
  }
  return [...found];
};

const shortBase = (deps: Deps) => `${deps.publicUrl.replace(/\/$/, '')}${SHORT_LINK_PREFIX}`;

/** The short link a message carries in place of a long one, for counting segments before the send. */
export const shortLinkExample = (deps: Deps) => `${shortBase(deps)}${'x'.repeat(SHORT_LINK_CODE_LENGTH)}`;

/** A message with its links as they are sent: each replaced by a short link of the same length. */
export const withShortLinks = (deps: Deps, body: string) => {
  const example = shortLinkExample(deps);
  return linksIn(body).reduce((text, url) => text.split(url).join(example), body);
};

interface ToShorten {
  recipientId: string;
  body: string;
}

/**
 * Replaces the links of each recipient's message by that recipient's short links, kept per
 * recipient and original address: a send retried or reconciled carries the same codes.
 */
export const shortenLinks = async (
  deps: Deps,
  campaign: { id: string },
  sandbox: boolean,
  items: ToShorten[],
): Promise<Map<string, string>> => {
  const wanted = items.flatMap((item) => linksIn(item.body).map((url) => ({ recipientId: item.recipientId, url })));
  const result = new Map(items.map((item) => [item.recipientId, item.body]));
  if (!wanted.length) return result;
  await deps.db
    .insert(campaignLinks)
    .values(wanted.map((link) => ({ ...link, code: newLinkCode(), campaignId: campaign.id, sandbox })))
    .onConflictDoNothing({ target: [campaignLinks.recipientId, campaignLinks.url] });
  const stored = await deps.db
    .select({ code: campaignLinks.code, recipientId: campaignLinks.recipientId, url: campaignLinks.url })
    .from(campaignLinks)
    .where(
      inArray(
        campaignLinks.recipientId,
        items.map((item) => item.recipientId),
      ),
    );
  const base = shortBase(deps);
  for (const item of items) {
    // Longest first, so an address that starts another is not replaced inside it.
    const mine = stored
      .filter((link) => link.recipientId === item.recipientId)
      .sort((a, b) => b.url.length - a.url.length);
    let body = item.body;
    const marks = new Map<string, string>();
    mine.forEach((link, i) => {
      const mark = `\u0000${i}\u0000`;
      marks.set(mark, `${base}${link.code}`);
      body = body.split(link.url).join(mark);
    });
    for (const [mark, short] of marks) body = body.split(mark).join(short);
    result.set(item.recipientId, body);
  }
  return result;
};

const CODE_PATTERN = /^[A-Za-z0-9]{6,16}$/;

/**
 * A visit to a short link: the stored address to send the visitor on to, or null for an unknown
 * code. A GET counts as a click (the first one dated); a HEAD (previews, prefetchers) is counted apart.
 */
export const followLink = async (deps: Deps, code: string, method: 'GET' | 'HEAD'): Promise<string | null> => {
  if (!CODE_PATTERN.test(code)) return null;
  const set =
    method === 'HEAD'
      ? { previews: sql`${campaignLinks.previews} + 1` }
      : {
          clicks: sql`${campaignLinks.clicks} + 1`,
          firstClickedAt: sql`COALESCE(${campaignLinks.firstClickedAt}, now())`,
          lastClickedAt: sql`now()`,
        };
  const [row] = await deps.db
    .update(campaignLinks)
    .set(set)
    .where(eq(campaignLinks.code, code))
    .returning({ url: campaignLinks.url });
  if (row && method === 'GET') await leaveOnClick(deps, code);
  return row?.url ?? null;
};

/** Records a conversion the agency's own system reports; the same external id is recorded once. */
export const recordConversion = async (
  deps: Deps,
  subaccountId: string,
  connectionId: string,
  campaignId: string,
  input: TCampaignConversionInput,
): Promise<TCampaignConversion> => {
  const campaign = await ownedCampaign(deps.db, subaccountId, campaignId);
  if (campaign.connectionId !== connectionId)
    throw new AppError('CAMPAIGN_NOT_FOUND', 'The campaign does not exist or was deleted.');
  const phone = !input.contactId && input.phone ? requireE164(input.phone, 'phone') : null;
  const [recipient] = await deps.db
    .select({ id: campaignRecipients.id })
    .from(campaignRecipients)
    .where(
      and(
        eq(campaignRecipients.campaignId, campaignId),
        input.contactId ? eq(campaignRecipients.contactId, input.contactId) : eq(campaignRecipients.phone, phone ?? ''),
      ),
    )
    .limit(1);
  if (!recipient)
    throw new AppError('NOT_FOUND', 'No recipient of this campaign has that contact id or phone number.', {
      field: input.contactId ? 'contactId' : 'phone',
    });
  const view = (row: typeof campaignConversions.$inferSelect, created: boolean): TCampaignConversion => ({
    conversionId: row.id,
    recipientId: row.recipientId,
    value: row.value,
    externalId: row.externalId,
    createdAt: row.createdAt.toISOString(),
    created,
  });
  const [inserted] = await deps.db
    .insert(campaignConversions)
    .values({
      id: newId('campaignConversion'),
      campaignId,
      recipientId: recipient.id,
      value: input.value ?? null,
      externalId: input.externalId ?? null,
    })
    .onConflictDoNothing({ target: [campaignConversions.campaignId, campaignConversions.externalId] })
    .returning();
  if (inserted) {
    await leaveOnGoal(deps, campaignId, recipient.id);
    return view(inserted, true);
  }
  const [earlier] = await deps.db
    .select()
    .from(campaignConversions)
    .where(
      and(eq(campaignConversions.campaignId, campaignId), eq(campaignConversions.externalId, input.externalId ?? '')),
    );
  if (!earlier) throw new AppError('CONFLICT', 'The conversion could not be recorded. Try again.');
  if (earlier.recipientId !== recipient.id)
    throw new AppError('CONFLICT', 'That external id was already recorded for another recipient.', {
      field: 'externalId',
    });
  return view(earlier, false);
};

const n = (value: unknown) => Number(value ?? 0);

/** Clicks, replies and conversions of a campaign, in total and over time (hourly within two days, else daily). */
export const campaignTracking = async (
  deps: Deps,
  subaccountId: string,
  campaignId: string,
): Promise<TCampaignTracking> => {
  const campaign = await ownedCampaign(deps.db, subaccountId, campaignId);
  const [totals] = rowsOf<Record<string, unknown>>(
    await deps.db.execute(sql`
      SELECT
        (SELECT count(*) FROM ${campaignRecipients} WHERE campaign_id = ${campaignId} AND sent_at IS NOT NULL) AS sent,
        (SELECT count(*) FROM ${campaignRecipients} WHERE campaign_id = ${campaignId} AND replied_at IS NOT NULL) AS replies,
        (SELECT count(*) FROM ${campaignLinks} WHERE campaign_id = ${campaignId}) AS links,
        (SELECT COALESCE(sum(clicks), 0) FROM ${campaignLinks} WHERE campaign_id = ${campaignId}) AS clicks,
        (SELECT COALESCE(sum(previews), 0) FROM ${campaignLinks} WHERE campaign_id = ${campaignId}) AS previews,
        (SELECT count(DISTINCT recipient_id) FROM ${campaignLinks} WHERE campaign_id = ${campaignId} AND clicks > 0) AS clickers,
        (SELECT bool_or(sandbox) FROM ${campaignLinks} WHERE campaign_id = ${campaignId}) AS sandbox,
        (SELECT count(*) FROM ${campaignConversions} WHERE campaign_id = ${campaignId}) AS reported,
        (SELECT COALESCE(sum(value), 0) FROM ${campaignConversions} WHERE campaign_id = ${campaignId}) AS reported_value,
        (SELECT count(*) FROM ${campaignRecipients} r WHERE r.campaign_id = ${campaignId} AND (
          r.replied_at IS NOT NULL
          OR EXISTS (SELECT 1 FROM ${campaignLinks} l WHERE l.recipient_id = r.id AND l.clicks > 0)
          OR EXISTS (SELECT 1 FROM ${campaignConversions} c WHERE c.recipient_id = r.id))) AS converted`),
  );
  const start = campaign.startedAt ?? campaign.createdAt;
  const bucket = Date.now() - start.getTime() <= 48 * 3600_000 ? 'hour' : 'day';
  const points = rowsOf<{ at: string | Date; clicks: unknown; replies: unknown; reported: unknown }>(
    await deps.db.execute(sql`
      SELECT date_trunc(${bucket}, at) AS at,
        count(*) FILTER (WHERE kind = 'click') AS clicks,
        count(*) FILTER (WHERE kind = 'reply') AS replies,
        count(*) FILTER (WHERE kind = 'reported') AS reported
      FROM (
        SELECT min(first_clicked_at) AS at, 'click' AS kind FROM ${campaignLinks}
          WHERE campaign_id = ${campaignId} AND first_clicked_at IS NOT NULL GROUP BY recipient_id
        UNION ALL
        SELECT replied_at, 'reply' FROM ${campaignRecipients} WHERE campaign_id = ${campaignId} AND replied_at IS NOT NULL
        UNION ALL
        SELECT created_at, 'reported' FROM ${campaignConversions} WHERE campaign_id = ${campaignId}
      ) AS events
      GROUP BY 1 ORDER BY 1`),
  );
  return {
    sent: n(totals?.sent),
    links: n(totals?.links),
    clicks: n(totals?.clicks),
    uniqueClickers: n(totals?.clickers),
    previews: n(totals?.previews),
    replies: n(totals?.replies),
    reported: n(totals?.reported),
    reportedValue: n(totals?.reported_value),
    converted: n(totals?.converted),
    sandbox: totals?.sandbox === true,
    bucket,
    points: points.map((point) => ({
      at: new Date(point.at).toISOString(),
      clicks: n(point.clicks),
      replies: n(point.replies),
      reported: n(point.reported),
    })),
  };
};

/** What the campaign's recipients wrote on its connection after their message was sent, newest first. */
export const campaignReplies = async (
  deps: Deps,
  subaccountId: string,
  campaignId: string,
): Promise<TCampaignReplies> => {
  const campaign = await ownedCampaign(deps.db, subaccountId, campaignId);
  const rows = await deps.db
    .select({
      messageId: channelMessages.id,
      threadId: channelMessages.threadId,
      contactId: campaignRecipients.contactId,
      phone: channelMessages.contactPhone,
      name: contacts.name,
      body: channelMessages.body,
      at: channelMessages.createdAt,
    })
    .from(campaignRecipients)
    .innerJoin(
      channelMessages,
      and(
        eq(channelMessages.connectionId, campaign.connectionId),
        eq(channelMessages.direction, 'inbound'),
        eq(channelMessages.contactPhone, campaignRecipients.phone),
        sql`${channelMessages.createdAt} >= ${campaignRecipients.sentAt}`,
        // As replies are counted: within 7 days, and for the latest campaign message to the number.
        sql`${channelMessages.createdAt} < ${campaignRecipients.sentAt} + make_interval(secs => ${REPLY_ATTRIBUTION_MS / 1000})`,
        sql`NOT EXISTS (SELECT 1 FROM ${campaignRecipients} later JOIN ${campaigns} lc ON lc.id = later.campaign_id
          WHERE lc.connection_id = ${campaign.connectionId} AND later.phone = ${campaignRecipients.phone}
            AND later.sent_at > ${campaignRecipients.sentAt} AND later.sent_at <= ${channelMessages.createdAt})`,
      ),
    )
    .leftJoin(contacts, eq(contacts.id, campaignRecipients.contactId))
    .where(and(eq(campaignRecipients.campaignId, campaignId), sql`${campaignRecipients.sentAt} IS NOT NULL`))
    .orderBy(sql`${channelMessages.createdAt} DESC`)
    .limit(500);
  return { replies: rows.map((row) => ({ ...row, at: row.at.toISOString() })) };
};

/** A draft copy of a campaign: same message, audience and quiet hours, no schedule. */
export const cloneCampaign = async (deps: Deps, subaccountId: string, campaignId: string) => {
  const source = await ownedCampaign(deps.db, subaccountId, campaignId);
  const channel = await ownedChannel(deps.db, subaccountId, source.connectionId);
  const row = await deps.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(campaigns)
      .values({
        id: newId('campaign'),
        subaccountId,
        connectionId: source.connectionId,
        channel: source.channel,
        name: `${source.name.slice(0, 113)} (copy)`,
        audience: source.audience,
        message: source.message,
        whatsappTemplate: source.whatsappTemplate,
        mediaUrl: source.mediaUrl,
        timeZone: source.timeZone,
        quietStart: source.quietStart,
        quietEnd: source.quietEnd,
      })
      .returning();
    await copySteps(tx, source.id, (inserted as typeof campaigns.$inferSelect).id);
    return inserted;
  });
  return toCampaign(
    row as typeof campaigns.$inferSelect,
    undefined,
    undefined,
    channel.account.transport === 'sandbox',
  );
};
