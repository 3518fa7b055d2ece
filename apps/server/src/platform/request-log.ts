import type { FastifyInstance } from 'fastify';
import { metrics } from './metrics';

/**
 * One line per answered request ("GET /api/health 200 1.8 ms", with the request id, which the
 * error envelope's support_id starts with), instead of Fastify's two multi-line entries, and the
 * request's figures for /metrics. Routes are labelled by their pattern (/api/agents/:agentId), so
 * ids never become label values; a path no route matches is "unmatched".
 */
export const installRequestLog = (app: FastifyInstance) => {
  app.addHook('onResponse', (request, reply, done) => {
    const seconds = reply.elapsedTime / 1000;
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    metrics.httpRequests.inc({ method: request.method, route, status: String(status) });
    metrics.httpDuration.observe({ method: request.method, route }, seconds);
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    const path = request.url.split('?')[0] ?? request.url;
    request.log[level](
      { method: request.method, url: path, statusCode: status, ms: Math.round(reply.elapsedTime * 10) / 10 },
      `${request.method} ${path} ${status} ${reply.elapsedTime.toFixed(1)} ms`,
    );
    done();
  });
};
