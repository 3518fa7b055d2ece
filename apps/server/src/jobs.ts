import { agentBuildJob } from './features/agents/builder';
import { lifetimeRefillJob } from './features/billing/lifetime';
import { campaignDispatchJob } from './features/channels/dispatch';
import { channelInboundJob } from './features/channels/inbound';
import { channelSendJob } from './features/channels/outbound';
import { evaluationJob } from './features/evaluation/engine';
import { questionJob } from './features/evaluation/generator';
import { knowledgeEmbedJob } from './features/knowledge/embedding-job';
import { webhookDeliveryJob } from './features/webhooks/deliveries';
import { registerJobKinds } from './platform/jobs';

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
  webhookDeliveryJob,
  knowledgeEmbedJob,
  lifetimeRefillJob,
] as const;

export const registerProductJobs = () => registerJobKinds(JOB_KINDS);
