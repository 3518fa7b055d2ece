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
