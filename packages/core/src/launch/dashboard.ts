import { z } from 'zod';

const ZCounts = z.object({ conversations: z.number(), messages: z.number() });

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
