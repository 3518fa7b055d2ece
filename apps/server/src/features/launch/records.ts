/**
 * A channel connection's record for Launch (spec 3: status, app_slug): its state, what it needs
 * next, and the error a visitor would meet, from facts the repo reads in a few statements.
 */
import {
  ERROR_CODES,
  LAUNCH_CHANNELS,
  recordError,
  setupPathOf,
  type TChecklistItem,
  type TConnectionRecordStatus,
  type TLaunchChannel,
  type TLaunchConnection,
  type TRecordError,
} from '@switchboard/core';
import { sandboxOffState } from '../channels/sandbox-mode';

export interface ConnectionFacts {
  id: string;
  subaccountId: string;
  type: string;
  name: string;
  buildId: string | null;
  agentName: string | null;
  deployedAt: Date | null;
  deployedBuildId: string | null;
  needsRedeploy: boolean;
  createdAt: Date;
  pausedAt: Date | null;
  /**
   * The channel's transport settings (channel_accounts, secrets left out) as stored, snake_case;
   * read whole so the state fields a channel adds (status, app_slug, status_code) are seen too.
   */
  account: Record<string, unknown> | null;
  /** A visitor or contact reached it: a widget chat, an inbound message or webhook. */
  reached: boolean;
  /** The last message it sent, when that failed. */
  lastFailure: { errorCode: string | null } | null;
  subaccountLocked: boolean;
}

export const isLaunchChannel = (type: string): type is TLaunchChannel =>
  (LAUNCH_CHANNELS as readonly string[]).includes(type);

/** Twilio's answers that mean the credentials stopped working (its code 20003, or HTTP 401/403). */
const AUTH_FAILURES = new Set(['20003', '401', '403']);
/** Send failures of the connection itself, not of one recipient (opted out, invalid number). */
const SEND_FAILURES = new Set(['SEND_FAILED', 'UNCONFIRMED', '500', '502', '503', '504']);

const text = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);
/** A state code a channel stored that the error catalogue knows (its advice and actions then apply). */
const isCatalogueCode = (code: string | null): code is keyof typeof ERROR_CODES =>
  Boolean(code && Object.hasOwn(ERROR_CODES, code));

const item = (key: string, label: string, done: boolean, required = true): TChecklistItem => ({
  key,
  label,
  done,
  required,
});

/** Errors of the channel itself (its provider refused it, or sends fail), not of the plan or the agent. */
const NOT_CHANNEL_ERRORS = new Set(['BILLING_ACTIVE_SUBSCRIPTION_REQUIRED', 'BUILD_NOT_FOUND']);

/**
 * The credentials step of a channel: done when they were verified, unless the channel is in error
 * now, which the step then says with the error's message.
 */
const credentialsItem = (key: string, label: string, verified: boolean, error: TRecordError | null) =>
  error && !NOT_CHANNEL_ERRORS.has(error.code)
    ? item(key, `Channel in error (${error.code}): ${error.message}`, false)
    : item(key, label, verified);

const checklistOf = (
  type: TLaunchChannel,
  facts: ConnectionFacts,
  sandbox: boolean,
  error: TRecordError | null,
): TChecklistItem[] => {
  const agent = item('agent', 'Agent chosen', Boolean(facts.buildId));
  if (type === 'website-widget' || type === 'website-block')
    return [
      agent,
      item('deployed', 'Deployed', Boolean(facts.deployedAt && facts.deployedBuildId)),
      item('embedded', 'Embed code on the site: first visitor chat received', facts.reached),
      item('up-to-date', 'Latest changes deployed', !facts.needsRedeploy, false),
    ];
  const account = facts.account ?? {};
  if (sandbox)
    return [agent, item('sandbox', 'Sandbox transport (no real messages): enter credentials to go live', false, false)];
  if (type === 'instagram')
    return [
      agent,
      credentialsItem(
        'account',
        'Instagram account connected',
        Boolean(text(account.external_account_id) || account.verified_at),
        error,
      ),
      item('webhook', 'Webhook received', Boolean(account.webhook_verified_at) || facts.reached),
    ];
  return [
    agent,
    credentialsItem('credentials', 'Twilio credentials verified', Boolean(account.verified_at), error),
    item('sender', 'Sender number set', Boolean(text(account.sender_phone) || text(account.messaging_service_sid))),
    item('webhook', 'Webhook received', facts.reached),
  ];
};

/** The error that stops the connection answering, if any, with the catalogue's code and actions. */
const errorOf = (type: TLaunchChannel, facts: ConnectionFacts): TRecordError | null => {
  const account = facts.account ?? {};
  if (facts.subaccountLocked)
    return recordError(
      'BILLING_ACTIVE_SUBSCRIPTION_REQUIRED',
      'This sub-account is locked by the plan: visitors are not answered until it is unlocked.',
    );
  if (account.status === 'error') {
    const code = text(account.status_code);
    const message = text(account.status_message) ?? undefined;
    return isCatalogueCode(code) ? recordError(code, message) : recordError('CONNECTION_INACTIVE', message);
  }
  const widget = type === 'website-widget' || type === 'website-block';
  if (!facts.buildId || (widget && facts.deployedAt && !facts.deployedBuildId))
    return recordError('BUILD_NOT_FOUND', 'No agent answers on this connection. Choose one and deploy it.');
  const failed = facts.lastFailure?.errorCode ?? null;
  if (failed && AUTH_FAILURES.has(failed))
    return recordError(
      'TWILIO_AUTH_FAILED',
      `Twilio refused the credentials on the last send (${failed}). Enter them again.`,
    );
  if (failed && SEND_FAILURES.has(failed))
    return recordError('MESSAGE_SEND_FAILED', `The last message could not be sent (${failed}).`);
  return null;
};

/**
 * The record of one connection: status, error, checklist and setup page. `sandboxOn`: whether this
 * server runs the messaging sandbox; where it does not, a sandbox connection answers nobody.
 */
export const toRecord = (facts: ConnectionFacts, options: { sandboxOn: boolean }): TLaunchConnection | null => {
  if (!isLaunchChannel(facts.type)) return null;
  const type = facts.type;
  const account = facts.account ?? {};
  const sandbox = account.transport === 'sandbox';
  const off = sandbox && !options.sandboxOn ? sandboxOffState(type) : null;
  const error = off ? recordError(off.statusCode, off.statusMessage) : errorOf(type, facts);
  const checklist = checklistOf(type, facts, sandbox, error);
  let status: TConnectionRecordStatus;
  if (facts.pausedAt) status = 'paused';
  else if (account.status === 'pending_connection') status = 'pending_connection';
  else if (error) status = 'error';
  else if (checklist.some((entry) => entry.required && !entry.done)) status = 'pending_connection';
  else status = 'live';
  return {
    connectionId: facts.id,
    subaccountId: facts.subaccountId,
    type,
    appSlug: text(account.app_slug) ?? type,
    name: facts.name,
    status,
    error: status === 'paused' ? recordError('CONNECTION_INACTIVE', 'Paused from Launch.') : error,
    checklist,
    sandbox,
    agentName: facts.agentName,
    pausedAt: facts.pausedAt?.toISOString() ?? null,
    setupPath: setupPathOf(type, facts.id, true),
    createdAt: facts.createdAt.toISOString(),
  };
};
