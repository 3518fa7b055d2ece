import type { FastifyRequest } from 'fastify';
import type { Env } from './env';

/** The public origin for links: PUBLIC_URL when set, else the origin the request came to. */
export const originOf = (request: FastifyRequest, env: Env): string =>
  env.PUBLIC_URL?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;
