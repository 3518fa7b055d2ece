import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { isWebAppPath } from '@switchboard/core';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { affiliateRoutes } from './features/affiliate/routes';
import { agentNamesIn, countAgents } from './features/agents/repo';
import { agentRoutes } from './features/agents/routes';
import { apiKeyRoutes } from './features/api-keys/routes';
import { authRoutes } from './features/auth/routes';
import { billingRoutes } from './features/billing/routes';
import { campaignRoutes } from './features/channels/campaign-routes';
import { instagramRoutes } from './features/channels/instagram-routes';
import { metaWebhookRoutes } from './features/channels/meta-webhook-routes';
import { channelRoutes } from './features/channels/routes';
import { twilioWebhookRoutes } from './features/channels/webhook-routes';
import { whatsappTemplateRoutes } from './features/channels/whatsapp-templates-routes';
import { clientPlanRoutes } from './features/client-plans/routes';
import { connectionRoutes } from './features/connections/routes';
import { conversationRoutes } from './features/conversations/routes';
import { demosRoutes } from './features/demos/routes';
import { createDomainMapping, verifiedAccountOf } from './features/domains/mapping';
import { domainRoutes } from './features/domains/routes';
import { evaluationDatasetRoutes } from './features/evaluation/dataset-routes';
import { evaluationRoutes } from './features/evaluation/routes';
import { healthRoutes } from './features/health/routes';
import { inboxRoutes } from './features/inbox/routes';
import { teamInboxRoutes } from './features/inbox/team-routes';
import { integrationRoutes } from './features/integrations/routes';
import { knowledgeRoutes } from './features/knowledge/routes';
import { launchRoutes } from './features/launch/routes';
import { marketplaceRoutes } from './features/marketplace/routes';
import { mcpEndpointRoutes } from './features/mcp/endpoint';
import { mcpServerRoutes } from './features/mcp/routes';
import { mentorRoutes } from './features/mentor/routes';
import { metricsRoutes } from './features/metrics/routes';
import { openAiCompatRoutes } from './features/openai-compat/routes';
import { operatorRoutes } from './features/operator/routes';
import { signInMailBrand } from './features/portal/mail-brand';
import { portalRoutes } from './features/portal/routes';
import { accountOfSlug, mailBrandOf } from './features/portal/service';
import { providerRoutes } from './features/providers/routes';
import { rankRoutes } from './features/rank/routes';
import { supportRoutes } from './features/support/routes';
import { tenancyRoutes } from './features/tenancy/routes';
import { themeRoutes } from './features/theme/routes';
import { webhookRoutes } from './features/webhooks/routes';
import { widgetRoutes } from './features/widget/routes';
import { registerProductJobs } from './jobs';
import { swaggerOptions } from './platform/api-docs';
import { installBrowserProtections } from './platform/browser-protections';
import type { Deps } from './platform/deps';
import { listenForDomainEvents } from './platform/domain-events';
import { installErrorHandler, sendError } from './platform/error-handler';
import { installGuard, sessionCallerResolver } from './platform/guard';
import { installHostCheck } from './platform/http';
import { newSupportId } from './platform/ids';
import { installLifecycle, type Lifecycle } from './platform/lifecycle';
import { createMailer, type Mailer } from './platform/mailer';
import { installNulRefusal } from './platform/nul-input';
import { installRequestLimits } from './platform/request-limits';
import { installRequestLog } from './platform/request-log';
import { createSerializerCompiler } from './platform/serializer';
import { installStreamSlots } from './platform/stream-slots';
import { registerProductReactions } from './reactions';

export interface BuiltApp {
  app: FastifyInstance;
  mailer: Mailer;
}

const repoRoot = () => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    if (existsSync(path.join(dir, 'apps', 'web'))) return dir;
    dir = path.dirname(dir);
  }
  return process.cwd();
};

/**
 * TRUST_PROXY as Fastify takes it. A number of hops becomes the function that trusts that many,
 * so the client address is the entry the outermost trusted proxy appended, and entries a client
 * wrote into X-Forwarded-For itself are never read. `true` is one hop (production refuses it):
 * Fastify's own `true` trusts every entry and takes the one the client wrote first.
 */
const trustProxyOption = (value: boolean | number | string[]) => {
  const hops = value === true ? 1 : value;
  return typeof hops === 'number' ? (_address: string, hop: number) => hop < hops : hops;
};

/** Builds the HTTP app around already-opened dependencies; `listen` is the caller's job. */
export const buildApp = async (deps: Deps, lifecycle?: Lifecycle): Promise<BuiltApp> => {
  registerProductJobs();
  registerProductReactions();
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    bodyLimit: deps.env.BODY_LIMIT_BYTES,
    trustProxy: trustProxyOption(deps.env.TRUST_PROXY),
    genReqId: () => newSupportId().slice(0, 16),
    // One line per request instead (platform/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createSerializerCompiler(app.log, deps.env.NODE_ENV === 'test'));
  app.decorate('deps', deps);
  app.decorate('callerResolvers', [sessionCallerResolver]);
  // What other processes publish for every process (a changed API key's cached clients).
  const stopListening = listenForDomainEvents(deps);
  app.addHook('onClose', async () => stopListening());

  installErrorHandler(app);
  // First: every request is counted from its first hook, so a stop waits for it.
  installLifecycle(app, lifecycle);
  installRequestLog(app);
  installHostCheck(app);
  await app.register(fastifyCookie);
  // After the cookie parser: both read the parsed cookies in onRequest.
  await installBrowserProtections(app);
  // Before the guard: a NUL in an id or a cookie would otherwise reach its lookups.
  installNulRefusal(app);
  // Before the guard: an address over its limit costs no caller lookup. Stream slots are taken
  // after it (preParsing), once the caller's API key is known.
  installRequestLimits(app);
  installStreamSlots(app);
  installGuard(app);
  await app.register(fastifyRateLimit, {
    global: false,
    // With Redis the limits are shared by every process; while Redis is unreachable a request is
    // let through rather than failed (the per-address limits keep counting per process).
    ...(deps.redis ? { redis: deps.redis, nameSpace: `${deps.env.REDIS_PREFIX}rl:`, skipOnError: true } : {}),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      error: {
        code: 'RATE_LIMIT_EXCEEDED',
        message: `Too many requests. Try again in ${context.after}.`,
        support_id: newSupportId(),
      },
    }),
  });
  await app.register(fastifySwagger, swaggerOptions());
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', uiConfig: { persistAuthorization: true } });

  const mailer = createMailer(deps.db, deps.env, deps.log);
  // Verified custom domains choose the origin of links asked for on them (http.ts linkOriginOf).
  const domainMapping = createDomainMapping(deps);
  app.decorate('verifiedOrigin', domainMapping.originFor);
  app.addHook('onClose', async () => domainMapping.close());
  await app.register(healthRoutes);
  await app.register(metricsRoutes);
  // Mails to an agency's clients carry its brand (features/portal, above auth and tenancy).
  await app.register(
    authRoutes(mailer, {
      signInBrand: async ({ email, hostname, slug }) => {
        const accountId =
          (hostname ? await verifiedAccountOf(deps.db, hostname) : null) ??
          (slug ? await accountOfSlug(deps, slug) : null);
        return signInMailBrand(deps, email, accountId);
      },
    }),
  );
  await app.register(tenancyRoutes(mailer, { mailBrand: (accountId) => mailBrandOf(deps, accountId) }));
  await app.register(themeRoutes);
  // Billing shows agents' names and counts, read by the agents feature above it.
  await app.register(billingRoutes({ namesIn: agentNamesIn, countsIn: countAgents }));
  await app.register(agentRoutes);
  await app.register(conversationRoutes);
  await app.register(providerRoutes);
  await app.register(knowledgeRoutes);
  await app.register(apiKeyRoutes);
  await app.register(openAiCompatRoutes);
  await app.register(connectionRoutes);
  await app.register(widgetRoutes);
  await app.register(inboxRoutes);
  await app.register(teamInboxRoutes);
  await app.register(channelRoutes);
  await app.register(campaignRoutes);
  await app.register(twilioWebhookRoutes);
  await app.register(metaWebhookRoutes);
  await app.register(instagramRoutes);
  await app.register(whatsappTemplateRoutes);
  await app.register(demosRoutes);
  await app.register(evaluationRoutes);
  await app.register(evaluationDatasetRoutes);
  await app.register(marketplaceRoutes(mailer));
  await app.register(rankRoutes);
  await app.register(supportRoutes(mailer));
  await app.register(operatorRoutes);
  await app.register(affiliateRoutes);
  await app.register(mentorRoutes);
  await app.register(webhookRoutes);
  await app.register(launchRoutes);
  await app.register(mcpServerRoutes);
  await app.register(mcpEndpointRoutes);
  await app.register(integrationRoutes);
  await app.register(domainRoutes);
  await app.register(clientPlanRoutes);
  await app.register(portalRoutes);

  await serveWebApp(app, deps);
  return { app, mailer };
};

/** Serves the built single-page app and widget assets; unknown non-API paths get index.html. */
const serveWebApp = async (app: FastifyInstance, deps: Deps) => {
  const root = repoRoot();
  const webDist = deps.env.WEB_DIST ?? path.join(root, 'apps', 'web', 'dist');
  const widgetDist = deps.env.WIDGET_DIST ?? path.join(root, 'apps', 'widget', 'dist');
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  if (existsSync(widgetDist)) {
    await app.register(fastifyStatic, {
      root: widgetDist,
      prefix: '/widget-assets/',
      decorateReply: false,
      setHeaders: (res) => {
        res.header('access-control-allow-origin', '*');
        res.header('cross-origin-resource-policy', 'cross-origin');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = /^\/(api|v1|stripe|widget-assets)(\/|$)/.test(url);
    if (!isApi && hasWeb && (request.method === 'GET' || request.method === 'HEAD')) {
      // The web app draws every page, its "Page not found" included; a path it has no page for
      // also answers 404 so crawlers and monitors see it.
      if (!isWebAppPath(url)) reply.status(404);
      return reply.header('cache-control', 'no-cache').sendFile('index.html', webDist);
    }
    return sendError(reply, 404, 'NOT_FOUND', `No route for ${request.method} ${url}`);
  });
};
