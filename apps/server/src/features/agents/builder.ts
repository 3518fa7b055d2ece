import { type TAgentDraft, type TProviderId, ZAgentDraft, ZProviderId } from '@switchboard/core';
import { z } from 'zod';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { defineJob } from '../../platform/jobs';
import { listModelChoices, type RunModelResult, runModel } from '../llm/gateway';
import { offlineDraft } from '../llm/offline-draft';
import * as repo from './repo';
import { assertCanAddAgent, insertAgentWithinLimit } from './service';

/**
 * The agent-builder job: asks the model (structured output) for a name, a system prompt, a first
 * message and three suggested responses from a one-line idea, creates the agent and returns its id.
 * The agent id is derived from the job id, so a job re-run after a crash finds the agent it made.
 */

export const AGENT_BUILD_JOB = 'agent:build';

export interface AgentBuildPayload {
  idea: string;
  provider?: TProviderId;
  model?: string;
}

const BUILDER_SYSTEM = [
  'You design AI chat agents for businesses. From the idea the user gives, write:',
  '- name: a short, friendly agent name (2 to 4 words);',
  "- systemPrompt: the agent's instructions in the second person (who it serves, what it helps with, tone, what it must never do, when to hand over to a person);",
  '- firstMessage: the greeting the agent opens a conversation with (one or two sentences);',
  '- suggestedResponses: exactly three short questions a visitor might click to start.',
  'Answer only with the JSON object.',
].join('\n');

export const agentIdForJob = (jobId: string) => `agt_${jobId.replace(/^job_/, '')}`;

/**
 * The model the person chose on New Agent, when the account can use it; else the account's first
 * configured provider model, else the offline model.
 */
export const pickModel = async (deps: Deps, accountId: string, payload: AgentBuildPayload) => {
  const choices = await listModelChoices(deps, accountId);
  if (payload.provider || payload.model) {
    if (!payload.provider || !payload.model) {
      throw new AppError('VALIDATION_ERROR', 'Choose a provider and a model together.', { field: 'model' });
    }
    const chosen = choices.find((choice) => choice.provider === payload.provider && choice.model === payload.model);
    const sameProvider = choices.some((choice) => choice.provider === payload.provider);
    if (!chosen && !sameProvider) {
      throw new AppError('VALIDATION_ERROR', 'This model is not available: add its provider key in Settings first.', {
        field: 'model',
      });
    }
    return { provider: payload.provider, model: payload.model };
  }
  const configured = choices.find((choice) => choice.provider !== 'offline') ?? choices[0];
  return { provider: configured?.provider ?? 'offline', model: configured?.model ?? 'offline' };
};

/** Where the draft came from: the chosen model, the offline model, or the offline writer after an unusable answer. */
export type DraftSource = 'model' | 'offline' | 'offline-fallback';

const draftFromModel = async (
  deps: Deps,
  job: { id: string; accountId: string; subaccountId: string },
  choice: Awaited<ReturnType<typeof pickModel>>,
  idea: string,
): Promise<{ draft: TAgentDraft; source: DraftSource }> => {
  let result: RunModelResult;
  try {
    result = await runModel(deps, {
      accountId: job.accountId,
      subaccountId: job.subaccountId,
      choice,
      system: BUILDER_SYSTEM,
      messages: [{ role: 'user', content: idea }],
      temperature: 0.7,
      schema: ZAgentDraft,
      source: 'agent-builder',
      idempotencyKey: `build:${job.id}`,
    });
  } catch (error) {
    // An answer that is not a draft (wrong format) gets the offline draft; real failures (key,
    // credits, time-out) are the person's to see.
    if (error instanceof AppError && error.code === 'AI_EMPTY_RESPONSE') {
      return { draft: offlineDraft(idea), source: 'offline-fallback' };
    }
    throw error;
  }
  const parsed = ZAgentDraft.safeParse(result.object);
  if (!parsed.success || !usable(parsed.data, idea)) return { draft: offlineDraft(idea), source: 'offline-fallback' };
  return { draft: parsed.data, source: result.offline ? 'offline' : 'model' };
};

/** A draft that only repeats the idea, or has empty parts, is not worth keeping. */
const usable = (draft: TAgentDraft, idea: string) => {
  const pasted = idea.trim().toLowerCase();
  const texts = [draft.name, draft.systemPrompt, draft.firstMessage, ...draft.suggestedResponses];
  if (texts.some((text) => !text.trim())) return false;
  if (pasted.length > 40 && texts.some((text) => text.toLowerCase().includes(pasted))) return false;
  return new Set(draft.suggestedResponses.map((text) => text.trim().toLowerCase())).size === 3;
};

const ZAgentBuildPayload = z.object({
  idea: z.string(),
  provider: ZProviderId.optional(),
  model: z.string().optional(),
}) satisfies z.ZodType<AgentBuildPayload>;

/** Builds an agent from a one-line idea while the person watches the builder. */
export const agentBuildJob = defineJob({
  type: AGENT_BUILD_JOB,
  queue: 'interactive',
  schema: ZAgentBuildPayload,
  handler: async (deps, job) => {
    const payload = job.payload;
    if (!job.accountId || !job.subaccountId) throw new Error('The builder job has no sub-account');
    const agentId = agentIdForJob(job.id);
    const existing = await repo.findAgent(deps.db, agentId);
    if (existing) return { status: 'success', data: { agentId, buildId: agentId, name: existing.name } };
    // Checked before the model is called, so a build the plan refuses spends nothing; checked again
    // when the agent is inserted (inside the transaction, with the row lock) for concurrent builds.
    await assertCanAddAgent(deps, job.accountId, job.subaccountId);
    const choice = await pickModel(deps, job.accountId, payload);
    const { draft, source } = await draftFromModel(
      deps,
      { id: job.id, accountId: job.accountId, subaccountId: job.subaccountId },
      choice,
      payload.idea,
    );
    const agent = await insertAgentWithinLimit(deps, {
      id: agentId,
      accountId: job.accountId,
      subaccountId: job.subaccountId,
      name: draft.name,
      systemPrompt: draft.systemPrompt,
      firstMessage: draft.firstMessage,
      suggestedResponses: draft.suggestedResponses,
      provider: choice.provider,
      model: choice.model,
    });
    return {
      status: 'success',
      data: {
        agentId: agent.id,
        buildId: agent.id,
        name: agent.name,
        offline: source !== 'model',
        draftSource: source,
      },
    };
  },
});
