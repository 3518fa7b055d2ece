import { nextSendTime } from '@switchboard/core';
import { inArray, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { renderFor } from './campaign-render';
import type { Sequence } from './campaign-steps';
import { recipientStates } from './campaign-steps-leave';
import type { DispatchRun } from './dispatch-batch';
import { type Outcome, outcomeOf } from './dispatch-outcomes';
import { WHATSAPP_WINDOW_MS } from './outbound';
import { channelMessages, contacts } from './schema';
import { suppressionsAmong } from './suppressions';

/** A claimed step send, and what each one of a batch becomes before anything is sent. */

export type Claimed = {
  id: string;
  recipient_id: string;
  contact_id: string;
  phone: string;
  step: number;
  attempts: number;
  message_id: string | null;
  send_key: string;
};

export type ToSend = { row: Claimed; messageId: string; body: string };

/** Message ids of a step's sends: one per step send, kept through retries. */
export const messageIdOf = (stepSendId: string) => `cms_${stepSendId.slice(4)}s`;

/** Sorts claimed step sends into skipped (left, not picked, cannot be sent), waiting (quiet hours) and to send. */
export const prepare = async (deps: Deps, run: DispatchRun, sequence: Sequence, claimed: Claimed[]) => {
  const { campaign, channel } = run;
  const people = await deps.db
    .select()
    .from(contacts)
    .where(
      inArray(
        contacts.id,
        claimed.map((row) => row.contact_id),
      ),
    );
  const byId = new Map(people.map((person) => [person.id, person]));
  const suppressed = await suppressionsAmong(deps.db, channel, [...new Set(claimed.map((row) => row.phone))]);
  const states = await recipientStates(
    deps.db,
    claimed.map((row) => row.recipient_id),
  );
  const windowOpen = new Set<string>();
  if (channel.connection.type === 'whatsapp')
    for (const row of rowsOf<{ phone: string }>(
      await deps.db.execute(sql`
        SELECT DISTINCT contact_phone AS phone FROM ${channelMessages}
        WHERE connection_id = ${channel.connection.id} AND direction = 'inbound'
          AND created_at > ${new Date(Date.now() - WHATSAPP_WINDOW_MS).toISOString()}::timestamptz
          AND contact_phone = ANY(${sql.param(claimed.map((row) => row.phone))}::text[])`),
    ))
      windowOpen.add(row.phone);
  const stepOf = new Map(sequence.steps.map((step) => [step.step, step]));
  const quiet =
    campaign.quietStart && campaign.quietEnd ? { start: campaign.quietStart, end: campaign.quietEnd } : null;
  const outcomes: Outcome[] = [];
  const toSend: ToSend[] = [];
  const now = new Date();
  for (const row of claimed) {
    const skip = (reason: string) => outcomes.push(outcomeOf(row.id, { status: 'skipped', skipReason: reason }));
    const person = byId.get(row.contact_id);
    const step = stepOf.get(row.step);
    const state = states.get(row.recipient_id) ?? { replied: false, goal: false };
    const suppression = suppressed.get(row.phone) ?? (person ? suppressed.get(person.phone) : undefined);
    if (!person || !step) skip(person ? 'STEP_REMOVED' : 'CONTACT_DELETED');
    else if (suppression) skip(suppression === 'OPTED_OUT' ? 'LEFT_OPTED_OUT' : suppression);
    else if (sequence.stopOnGoal && state.goal) skip('LEFT_GOAL');
    else if (sequence.stopOnReply && state.replied) skip('LEFT_REPLIED');
    else if ((step.condition === 'replied' && !state.replied) || (step.condition === 'not_replied' && state.replied))
      skip('CONDITION');
    else if (channel.connection.type === 'whatsapp' && !windowOpen.has(person.phone)) skip('SESSION_EXPIRED');
    else {
      const next = nextSendTime(now, person.timeZone ?? campaign.timeZone, quiet);
      if (next.getTime() > now.getTime()) {
        outcomes.push(outcomeOf(row.id, { status: 'queued', nextAttemptAt: next, refundAttempt: true }));
        continue;
      }
      const rendered = renderFor({ message: step.message, whatsappTemplate: null }, person);
      if (rendered.missing.length) skip(`MISSING_VARIABLE:${rendered.missing[0]}`);
      else toSend.push({ row, messageId: row.message_id ?? messageIdOf(row.id), body: rendered.body });
    }
  }
  return { outcomes, toSend };
};
