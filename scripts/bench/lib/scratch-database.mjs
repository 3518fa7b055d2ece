/** A throwaway database on an existing PostgreSQL server, for one benchmark run. Not a benchmark itself. */
import pg from 'pg';

/**
 * Creates database `<prefix>_<time>` on the server of `adminUrl` (any database the user may
 * connect to) and answers its URL and `drop()`, which ends its connections and drops it.
 */
export const createScratchDatabase = async (adminUrl, prefix) => {
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
};
