import { agentBuildJob } from './features/agents/builder';
import { lifetimeRefillJob } from './features/billing/lifetime';
import { CAMPAIGN_WATCH, SANDBOX_LOG_PRUNE } from './features/channels/campaign-watch';
import { campaignDispatchJob } from './features/channels/dispatch';
import { channelInboundJob } from './features/channels/inbound';
import { channelSendJob } from './features/channels/outbound';
import { CLIENT_BALANCE_WATCH } from './features/client-plans/balance';
import { DOMAIN_RECHECK } from './features/domains/recheck';
import { evaluationJob } from './features/evaluation/engine';
import { questionJob } from './features/evaluation/generator';
import { EVALUATION_WATCH } from './features/evaluation/run-watch';
import { knowledgeEmbedJob } from './features/knowledge/embedding-job';
import { webhookDeliveryJob } from './features/webhooks/deliveries';
import { reactionJob } from './platform/domain-events';
import { registerJobKinds, registerRecurring } from './platform/jobs';

/**
 * Every kind of background job the product runs, each with its queue, priority and payload schema
 * (defined beside the feature's code with `defineJob`). A process that enqueues or runs jobs
 * registers them all here, once, when the app is built.
 */
export const JOB_KINDS = [
  channelInboundJob,
  channelSendJob,
  agentBuildJob,
  questionJob,
  campaignDispatchJob,
  evaluationJob,
  reactionJob,
  webhookDeliveryJob,
  knowledgeEmbedJob,
  lifetimeRefillJob,
] as const;

/** The product's recurring tasks, each run once per period across all processes (beside the engine's own upkeep). */
export const RECURRING_TASKS = [
  CAMPAIGN_WATCH,
  SANDBOX_LOG_PRUNE,
  EVALUATION_WATCH,
  DOMAIN_RECHECK,
  CLIENT_BALANCE_WATCH,
] as const;

export const registerProductJobs = () => {
  registerJobKinds(JOB_KINDS);
  registerRecurring(RECURRING_TASKS);
};
