import { z } from 'zod';

/**
 * Who a channel's messages came from: received (from visitors and contacts), the agent (its answers
 * and notices), a person (from the inbox), a campaign, a keyword confirmation (STOP, START, HELP).
 */
export const MESSAGE_SOURCES = ['received', 'agent', 'person', 'campaign', 'keyword'] as const;
export type TMessageSender = (typeof MESSAGE_SOURCES)[number];
export const MESSAGE_SOURCE_LABELS: Record<TMessageSender, string> = {
  received: 'Received',
  agent: 'Agent',
  person: 'Team',
  campaign: 'Campaigns',
  keyword: 'Keyword replies',
};

const ZCounts = z.object({
  conversations: z.number(),
  messages: z.number(),
  /** The messages by who sent them. */
  sources: z.object({
    received: z.number(),
    agent: z.number(),
    person: z.number(),
    campaign: z.number(),
    keyword: z.number(),
  }),
});

/** GET /api/connect/{connectId}/dashboard: a sub-account's figures, aggregated by the database (UTC). */
export const ZConnectionDashboard = z.object({
  subaccountId: z.string(),
  generatedAt: z.string(),
  /** Starts of the periods (UTC): today, this ISO week (Monday), this month. */
  periods: z.object({ today: z.string(), week: z.string(), month: z.string() }),
  channels: z.array(
    z.object({
      channel: z.string(),
      today: ZCounts,
      week: ZCounts,
      month: ZCounts,
    }),
  ),
  widgets: z.array(
    z.object({
      connectionId: z.string(),
      name: z.string(),
      type: z.enum(['website-widget', 'website-block']),
      /** Visitor messages today (UTC). */
      todayMessages: z.number(),
      dailyLimit: z.number(),
    }),
  ),
  credits: z.object({ today: z.number(), month: z.number() }),
  openTakeovers: z.number(),
  evaluations: z.array(
    z.object({
      agentId: z.string(),
      agentName: z.string(),
      runId: z.string(),
      runName: z.string(),
      finishedAt: z.string().nullable(),
      passed: z.number(),
      graded: z.number(),
      passRate: z.number().nullable(),
    }),
  ),
  /** Messages per UTC day and channel over the last 30 days (days without messages are left out). */
  series: z.array(z.object({ day: z.string(), channel: z.string(), messages: z.number() })),
});
export type TConnectionDashboard = z.infer<typeof ZConnectionDashboard>;

/** Channel names of threads as the dashboard shows them. */
export const DASHBOARD_CHANNEL_LABELS: Record<string, string> = {
  widget: 'Website Widget',
  'website-block': 'Website Block',
  sms: 'SMS',
  whatsapp: 'WhatsApp',
  instagram: 'Instagram',
  api: 'API',
  demo: 'Demos',
};
