import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A throwaway PostgreSQL database on the server of `baseUrl`, for a test run that must not see
 * any other run's rows. Returns its URL and a function that drops it.
 */
export const createScratchDatabase = async (baseUrl: string, prefix = 'sbt') => {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
};
