import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Database, Db } from '../db/client';
import type { Env } from './env';
import type { EventBus } from './event-bus';

/** What a service needs from the outside world, built once at start and passed down. */
export interface Deps {
  env: Env;
  db: Db;
  database: Database;
  redis: Redis | null;
  bus: EventBus;
  log: Logger;
  /** Origin used in links sent by email when no request is at hand. */
  publicUrl: string;
}

/**
 * Whether the database is the embedded one (PGlite, no DATABASE_URL): its data folder is locked to
 * this process, so what this process wrote is all there is (holds and histories kept in memory).
 */
export const embeddedDatabase = (deps: Pick<Deps, 'env'>): boolean => !deps.env.DATABASE_URL;
