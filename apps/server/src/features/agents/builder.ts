import { type TProviderId, ZAgentDraft } from '@switchboard/core';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { registerJobHandler } from '../../platform/jobs';
import { listModelChoices, runModel } from '../llm/gateway';
import * as repo from './repo';
import { insertAgentWithinLimit } from './service';

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

const pickModel = async (deps: Deps, accountId: string, payload: AgentBuildPayload) => {
  if (payload.provider && payload.model) return { provider: payload.provider, model: payload.model };
  const choices = await listModelChoices(deps, accountId);
  const configured = choices.find((choice) => choice.provider !== 'offline') ?? choices[0];
  return { provider: configured?.provider ?? 'offline', model: configured?.model ?? 'offline' };
};

export const registerAgentBuilder = () =>
  registerJobHandler(AGENT_BUILD_JOB, async (deps, job) => {
    const payload = job.payload as AgentBuildPayload;
    if (!job.accountId || !job.subaccountId) throw new Error('The builder job has no sub-account');
    const agentId = agentIdForJob(job.id);
    const existing = await repo.findAgent(deps.db, agentId);
    if (existing) return { status: 'success', data: { agentId, buildId: agentId, name: existing.name } };
    const choice = await pickModel(deps, job.accountId, payload);
    const result = await runModel(deps, {
      accountId: job.accountId,
      subaccountId: job.subaccountId,
      choice,
      system: BUILDER_SYSTEM,
      messages: [{ role: 'user', content: payload.idea }],
      temperature: 0.7,
      schema: ZAgentDraft,
      source: 'agent-builder',
      idempotencyKey: `build:${job.id}`,
    });
    const draft = ZAgentDraft.safeParse(result.object);
    if (!draft.success) throw new AppError('AGENT_CREATION_FAILED', 'Builder job returned empty result');
    const agent = await insertAgentWithinLimit(deps, {
      id: agentId,
      accountId: job.accountId,
      subaccountId: job.subaccountId,
      name: draft.data.name,
      systemPrompt: draft.data.systemPrompt,
      firstMessage: draft.data.firstMessage,
      suggestedResponses: draft.data.suggestedResponses,
      provider: choice.provider,
      model: choice.model,
    });
    return {
      status: 'success',
      data: { agentId: agent.id, buildId: agent.id, name: agent.name, offline: result.offline },
    };
  });
