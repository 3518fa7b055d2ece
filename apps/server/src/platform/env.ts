import path from 'node:path';
import { privacyEmbedUrl } from '@switchboard/core';
import { z } from 'zod';
import { QUEUE_NAMES } from './jobs/queues';
import { outboundPolicy } from './outbound/policy';

const list = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter(Boolean),
  );

export const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * Behind a load balancer: a number of hops, or the proxies' addresses or CIDRs, comma-separated.
   * The client address is the X-Forwarded-For entry the nearest untrusted hop wrote, never one the
   * client wrote itself; https comes from X-Forwarded-Proto. `true` means one hop outside
   * production and is refused in production (it used to trust every address in the header).
   * Off by default: those headers are ignored.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value): boolean | number | string[] => {
      const trimmed = value.trim().toLowerCase();
      if (trimmed === 'true') return true;
      if (trimmed === 'false' || trimmed === '') return false;
      if (/^\d+$/.test(trimmed)) return Number(trimmed);
      return trimmed
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
    }),
  HOST: z.string().default('0.0.0.0'),
  /** The site's origin in emailed links and embed codes; required in production. */
  PUBLIC_URL: z
    .url()
    .refine(
      (value) => /^https?:\/\/[^/?#]+\/?$/.test(value),
      'PUBLIC_URL must be an origin like https://switchboard.example.com',
    )
    .optional(),
  /** Without PUBLIC_URL (development), hosts besides loopback whose requests may choose link origins. */
  DEV_ALLOWED_HOSTS: list,
  DATA_DIR: z.string().default('./data'),
  /** The embedded database's page cache (PostgreSQL shared_buffers inside the process). */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d{1,6}(kB|MB|GB)$/, 'PGLITE_SHARED_BUFFERS must be a size like 32MB')
    .default('16MB'),
  /**
   * How V8 compiles the embedded database's WebAssembly: `baseline` (Liftoff only) keeps about
   * 40 MB less resident than `optimizing` (Liftoff, then TurboFan for hot functions).
   */
  PGLITE_WASM_TIERS: z.enum(['baseline', 'optimizing']).default('baseline'),
  /**
   * How far V8 lets the old generation grow past what the last full collection kept (100: to
   * twice that) before the next one; 0 leaves it to V8.
   */
  HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(300).default(100),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional(),
  /** Connections each process keeps to PostgreSQL. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must start with redis:// or rediss://')
    .optional(),
  /** Prefix of every Redis key and channel, so several installations can share one Redis. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]{1,40}$/, 'REDIS_PREFIX: letters, digits, ":", "_" and "-", at most 40')
    .default('sb:'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('Switchboard <no-reply@switchboard.local>'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_AUTH_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_USERINFO_URL: z.url().default('https://openidconnect.googleapis.com/v1/userinfo'),
  DIRECT_LOGIN_ALLOWLIST: list,
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'ENCRYPTION_KEY must be 64 hex characters (32 bytes)')
    .optional(),
  /** Sign-in links one address may request per minute. */
  SIGNIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Sign-in links one client address may request per minute, whatever the email. */
  SIGNIN_ADDRESS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(30),
  /** Pre-registrations one client address may make per minute. */
  PREREGISTER_ADDRESS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(20),
  /** Email checks (GET /api/auth/check-user) one client address may make per minute. */
  CHECK_USER_ADDRESS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  /** Requests one client address may make per minute to each public route without a limit of its own. */
  PUBLIC_ADDRESS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(600),
  /** Calls one address may make per minute to what Twilio and Meta call: webhooks and media files. */
  WEBHOOK_ADDRESS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(12_000),
  /** Requests one client address may make per minute to /mcp and /v1. */
  API_ADDRESS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(3000),
  /** Requests one platform API key may make per minute, on any route. */
  API_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(3000),
  /**
   * Failed attempts one client address may make per minute (a wrong API key, Meta verify token or
   * share link) before its attempts are refused until the minute is over.
   */
  FAILED_ATTEMPTS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(30),
  /** Event streams and calls in progress (chats, /mcp, /v1) one client address may hold open in a process. */
  STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(50),
  /** Event streams and calls in progress one platform API key may hold open in a process. */
  STREAMS_PER_KEY: z.coerce.number().int().min(1).max(1_000_000).default(100),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  MAGIC_LINK_TTL_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  SEED_DEMO: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  /** Turns GET /metrics on: Prometheus sends it as `Authorization: Bearer …`. Unset: no /metrics. */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  WEB_DIST: z.string().optional(),
  WIDGET_DIST: z.string().optional(),
  // Billing: Stripe when STRIPE_SECRET_KEY is set, the built-in sandbox otherwise.
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_BASE: z.url().optional(),
  STRIPE_PORTAL_RETURN_URL: z.url().optional(),
  BILLING_PRICE_MODE: z.enum(['test', 'live']).optional(),
  // Catalog id (sb_...) to Stripe id (price_..., coupon id), comma-separated `sb_id=stripe_id`, per mode.
  STRIPE_IDS_TEST: z.string().default(''),
  STRIPE_IDS_LIVE: z.string().default(''),
  FREE_PLAN_CREDITS: z.coerce.number().min(0).default(100),
  /** Allow the built-in sandbox payments in production (every checkout page then says so). */
  BILLING_SANDBOX: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
  // Promo codes that grant credits, `CODE:credits` comma-separated; outside production WELCOME100:100 when unset.
  BILLING_PROMO_CODES: z.string().optional(),
  SALES_CONTACT_URL: z.url().default('https://switchboard.local/contact-sales'),
  // Agents and the LLM gateway.
  /** Run job workers in this process; set false on web-only processes when workers run apart. */
  JOB_WORKERS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  /**
   * Workers per job queue in this process, `queue=n` comma-separated (`messages=8,campaigns=2`);
   * queues not named keep their defaults (platform/jobs/queues.ts). A bare number sets the
   * messages queue's.
   */
  JOB_CONCURRENCY: z
    .string()
    .default('')
    .transform((value, context): Partial<Record<string, number>> => {
      const trimmed = value.trim();
      if (!trimmed) return {};
      if (/^\d+$/.test(trimmed)) return { messages: Math.min(64, Math.max(1, Number(trimmed))) };
      const counts: Record<string, number> = {};
      for (const pair of trimmed.split(',').map((item) => item.trim())) {
        const match = /^([a-z]+)=(\d{1,2})$/.exec(pair);
        const count = Number(match?.[2]);
        if (!match?.[1] || !(QUEUE_NAMES as string[]).includes(match[1]) || count < 1 || count > 64) {
          context.addIssue({
            code: 'custom',
            message: `"${pair}" is not queue=count (1 to 64) for a queue of ${QUEUE_NAMES.join(', ')}`,
          });
          return z.NEVER;
        }
        counts[match[1]] = count;
      }
      return counts;
    }),
  JOB_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  /**
   * On SIGTERM, the most time the process takes to stop: readiness fails at once, requests are
   * drained, streams closed, jobs handed back at a step, metering flushed; then it exits.
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(120_000).default(10_000),
  /**
   * On SIGTERM, how long requests are still served after readiness fails, so the load balancer's
   * next health check takes the process out before its listener closes (part of the timeout).
   * 3 s in production, 0 elsewhere (nothing polls a development server's readiness).
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  /** Hours a finished job stays in the jobs table before it is deleted. */
  JOB_RETENTION_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 365)
    .default(168),
  /**
   * Twilio's REST API origin for SMS and WhatsApp connections with Twilio credentials (a regional
   * edge, a forward proxy, or a local stand-in in tests).
   */
  TWILIO_API_URL: z.url().default('https://api.twilio.com'),
  /** Twilio's Content API origin, where a WhatsApp connection's approved templates are listed (a stand-in in tests). */
  TWILIO_CONTENT_API_URL: z.url().default('https://content.twilio.com'),
  /**
   * The messaging sandbox (SMS, WhatsApp and Instagram connections without credentials, the sandbox
   * phone): `true` allows it in production, where it is off otherwise; `false` turns it off
   * everywhere. Unset: on outside production.
   */
  MESSAGING_SANDBOX: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true')),
  /**
   * Meta's Graph API base URL, with its version, for Instagram connections (a local stand-in in
   * tests). META_APP_ID and META_APP_SECRET turn on "Connect with Meta" (OAuth); without them the
   * agency pastes a page access token and the app secret.
   */
  META_GRAPH_URL: z.url().default('https://graph.facebook.com/v21.0'),
  META_APP_ID: z
    .string()
    .regex(/^\d{5,20}$/, 'META_APP_ID is the numeric App ID from the Meta app dashboard')
    .optional(),
  META_APP_SECRET: z
    .string()
    .regex(/^[0-9a-fA-F]{32}$/, 'META_APP_SECRET is the 32-character app secret from the Meta app dashboard')
    .optional(),
  /** The verify token of the platform app's webhook (/api/webhooks/meta/app) for "Connect with Meta" connections. */
  META_WEBHOOK_VERIFY_TOKEN: z
    .string()
    .min(8, 'META_WEBHOOK_VERIFY_TOKEN needs at least 8 characters')
    .max(200)
    .optional(),
  /**
   * Connected apps (agents' app tools): Composio's project API key. Without it the labelled sandbox
   * catalogue (calendar, CRM, email working against this database) is used, in production too.
   */
  COMPOSIO_API_KEY: z
    .string()
    .trim()
    .min(8, 'COMPOSIO_API_KEY is the project API key from the Composio dashboard')
    .optional(),
  /** Composio's API origin (a proxy, or a local stand-in in tests); paths /api/v3/… are added. */
  COMPOSIO_BASE_URL: z.url().default('https://backend.composio.dev'),
  /** Conversations an evaluation run keeps in flight at once (each makes its model calls in turn). */
  EVAL_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  /** Attempts of one model call of an evaluation when the provider answers with a rate limit. */
  EVAL_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(4),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  /**
   * Private hosts that user-given URLs (provider base URLs, agent HTTP tools, website checks,
   * knowledge imports) may reach: host names, host:port, addresses or CIDRs, comma-separated.
   * Empty by default: only public addresses are reachable.
   */
  PRIVATE_URL_ALLOWLIST: list.superRefine((entries, context) => {
    try {
      outboundPolicy(entries);
    } catch (error) {
      context.addIssue({ code: 'custom', message: (error as Error).message });
    }
  }),
  /** The port a custom domain's HTTP verification connects to (80; another only behind a test proxy). */
  DOMAIN_VERIFICATION_PORT: z.coerce.number().int().min(1).max(65535).default(80),
  /** Provider API addresses (change them for a proxy, Azure or a test stub). */
  OPENAI_BASE_URL: z.url().default('https://api.openai.com/v1'),
  OPENROUTER_BASE_URL: z.url().default('https://openrouter.ai/api/v1'),
  ANTHROPIC_BASE_URL: z.url().default('https://api.anthropic.com/v1'),
  /** Time limit of reading one uploaded document (its own worker thread). */
  KNOWLEDGE_EXTRACT_TIMEOUT_MS: z.coerce.number().int().min(500).max(600_000).default(20_000),
  /** Memory limit (MB of JavaScript heap) of reading one uploaded document. */
  KNOWLEDGE_EXTRACT_MEMORY_MB: z.coerce.number().int().min(32).max(16_384).default(256),
  /** Pages one website import reads at most, whatever the request asks. */
  KNOWLEDGE_CRAWL_MAX_PAGES: z.coerce.number().int().min(1).max(1000).default(50),
  /** Time one website import may take. */
  KNOWLEDGE_CRAWL_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  /**
   * What reading one upload may unpack: a DOCX's text parts together, counted as they really
   * inflate (a "zip bomb" declares small sizes), and a PDF's largest inflated stream.
   */
  KNOWLEDGE_MAX_UNCOMPRESSED_BYTES: z.coerce
    .number()
    .int()
    .min(1_000_000)
    .default(100 * 1024 * 1024),
  /** How many knowledge excerpts are given to the model per reply. */
  KNOWLEDGE_MAX_CHUNKS: z.coerce.number().int().min(1).max(20).default(4),
  CHECK_EMBEDDABLE_TIMEOUT_MS: z.coerce.number().int().min(500).max(30_000).default(5000),
  /** Demo chat messages one visitor address may send per minute (the demo's request limit still applies). */
  DEMO_CHAT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  // Website widget: per-visitor and per-IP messages per minute on the public chat.
  WIDGET_VISITOR_BURST_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(20),
  WIDGET_IP_BURST_LIMIT: z.coerce.number().int().min(1).max(10_000_000).default(300),
  /** Marketplace projects one user may create per UTC day. */
  MARKETPLACE_DAILY_PROJECT_LIMIT: z.coerce.number().int().min(1).max(1000).default(2),
  /** Share of each paid invoice of a referred agency credited to the affiliate (0.3 = 30 %). */
  AFFILIATE_COMMISSION_RATE: z.coerce.number().min(0).max(1).default(0.3),
  /** Days a commission stays pending (refunds, chargebacks) before it is payable. */
  AFFILIATE_HOLD_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  /** A link's visit is attributed only to an agency created at most this many days before. */
  AFFILIATE_ATTRIBUTION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * The platform's operators (affiliate payouts, the sandbox's refunds and disputes): emails,
   * comma-separated, matched case-insensitively against the signed-in user's. Empty: no operator.
   */
  OPERATOR_EMAILS: list,
  /** The operator's address that Support Center tickets are emailed to; unset: tickets are only stored. */
  SUPPORT_EMAIL: z.string().trim().email('SUPPORT_EMAIL must be an email address').optional(),
  /**
   * Video Guides: `guide=https://…` pairs, comma-separated (guides: getting-started, website-widget,
   * channels, evaluation, billing, self-hosting). YouTube and Vimeo links play through their
   * privacy-friendly players; a guide without a video shows its written article.
   */
  HOWITWORKS_VIDEOS: z
    .string()
    .default('')
    .transform((value, context) => {
      const videos: Record<string, string> = {};
      for (const pair of value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)) {
        const at = pair.indexOf('=');
        const guide = pair.slice(0, at).trim().toLowerCase();
        const url = privacyEmbedUrl(pair.slice(at + 1));
        if (at < 1 || !/^[a-z0-9-]{1,60}$/.test(guide) || !url) {
          context.addIssue({ code: 'custom', message: `"${pair}" is not guide=https://video-address` });
          return z.NEVER;
        }
        videos[guide] = url;
      }
      return videos;
    }),
});

/** The settings once read; SHUTDOWN_DRAIN_MS is resolved from NODE_ENV when not given. */
export type Env = Omit<z.infer<typeof ZEnv>, 'SHUTDOWN_DRAIN_MS'> & { SHUTDOWN_DRAIN_MS: number };

/** Settings that only make sense together. */
const ZCheckedEnv = ZEnv.superRefine((env, context) => {
  if (env.NODE_ENV === 'production' && env.DATABASE_URL && !env.ENCRYPTION_KEY) {
    context.addIssue({
      code: 'custom',
      path: ['ENCRYPTION_KEY'],
      message:
        'ENCRYPTION_KEY is required in production on PostgreSQL: every process must read the provider keys the others saved (generate one with: openssl rand -hex 32)',
    });
  }
  if (env.NODE_ENV === 'production' && env.TRUST_PROXY === true) {
    context.addIssue({
      code: 'custom',
      path: ['TRUST_PROXY'],
      message:
        'TRUST_PROXY=true would let any client choose its own address with X-Forwarded-For: give the number of proxies in front of the server (e.g. 1) or their addresses (e.g. 10.0.0.0/8)',
    });
  }
  if (env.NODE_ENV === 'production' && !env.PUBLIC_URL) {
    context.addIssue({
      code: 'custom',
      path: ['PUBLIC_URL'],
      message:
        'PUBLIC_URL is required in production: the origin of sign-in links and embed codes, e.g. https://switchboard.example.com',
    });
  }
});

/** Reads and validates the environment once; a wrong value names its variable. */
export const loadEnv = (source: NodeJS.ProcessEnv = process.env): Env => {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = ZCheckedEnv.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  return {
    ...parsed.data,
    DATA_DIR: path.resolve(parsed.data.DATA_DIR),
    SHUTDOWN_DRAIN_MS: parsed.data.SHUTDOWN_DRAIN_MS ?? (parsed.data.NODE_ENV === 'production' ? 3_000 : 0),
  };
};

export const metaOauthEnabled = (env: Env): boolean => Boolean(env.META_APP_ID && env.META_APP_SECRET);

export const googleEnabled = (env: Env): boolean => Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET);

/** The dev mailbox exists only without SMTP and outside production. */
export const devMailboxEnabled = (env: Env): boolean => !env.SMTP_URL && env.NODE_ENV !== 'production';
