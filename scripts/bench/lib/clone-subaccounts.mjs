/**
 * Many sub-accounts at once, for benchmarks that need an agency of a thousand clients: a template
 * sub-account made through the API (its membership, agent and deployed widget, exactly the rows
 * the product writes) is copied in SQL, in one transaction. Not a benchmark itself.
 */
import { randomBytes } from 'node:crypto';

/** The tables a sub-account with an agent and a website widget writes, with the column that ties a row to the template. */
const TABLES = [
  ['subaccounts', 'id'],
  ['memberships', 'subaccount_id'],
  ['agents', 'subaccount_id'],
  ['connections', 'subaccount_id'],
];
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A new id of the same kind as `id` (`agt_…` gives `agt_` and 16 random base-36 characters). */
const likeId = (id) => {
  let out = '';
  for (const byte of randomBytes(16)) out += ALPHABET[byte % 36];
  return `${id.slice(0, id.indexOf('_'))}_${out}`;
};

/**
 * Copies the template sub-account `count` times inside `transaction(run)` (run gets a
 * `query(sql, params)` answering `{ rows }`). `template` names the sub-account, its name, agent,
 * connection and widget; every text column of a copied row that holds one of these values gets the
 * copy's own, every row a new id of its kind; `nameOf(i)` names copy i (1-based). Answers the
 * copies' widget ids.
 */
export const cloneSubaccounts = async (transaction, template, count, nameOf) => {
  const copies = Array.from({ length: count }, (_, i) => ({
    sub: likeId(template.subaccountId),
    agent: likeId(template.agentId),
    connection: likeId(template.connectionId),
    widget: likeId(template.widgetId),
    name: nameOf(i + 1),
  }));
  const replaced = [
    [template.subaccountId, 'sub'],
    [template.agentId, 'agent'],
    [template.connectionId, 'connection'],
    [template.widgetId, 'widget'],
    [template.name, 'name'],
  ];
  await transaction(async (query) => {
    for (const [table, key] of TABLES) {
      const { rows: columns } = await query(
        `SELECT column_name, data_type FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`,
        [table],
      );
      const { rows: originals } = await query(`SELECT id FROM "${table}" WHERE "${key}" = $1`, [template.subaccountId]);
      for (const original of originals) {
        // Each text column: the copy's value where the template's id or name stands, else as it is
        // (a row's own id: a new one of its kind).
        const values = columns.map(({ column_name: name, data_type: type }) => {
          if (type !== 'text') return `t."${name}"`;
          const cases = replaced.map(([value, field]) => `WHEN '${value.replaceAll("'", "''")}' THEN c.${field}`);
          return `CASE t."${name}" ${cases.join(' ')} ELSE ${name === 'id' ? 'c.row_id' : `t."${name}"`} END`;
        });
        await query(
          `INSERT INTO "${table}" (${columns.map((column) => `"${column.column_name}"`).join(', ')})
           SELECT ${values.join(', ')}
             FROM "${table}" t,
                  unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
                    AS c(row_id, sub, agent, connection, widget, name)
            WHERE t.id = $1`,
          [
            original.id,
            copies.map(() => likeId(original.id)),
            copies.map((copy) => copy.sub),
            copies.map((copy) => copy.agent),
            copies.map((copy) => copy.connection),
            copies.map((copy) => copy.widget),
            copies.map((copy) => copy.name),
          ],
        );
      }
    }
  });
  return copies.map((copy) => copy.widget);
};

/** `transaction` for cloneSubaccounts on a node-postgres client. */
export const pgTransaction = (client) => async (run) => {
  await client.query('BEGIN');
  try {
    await run((text, params) => client.query(text, params));
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
};

/** `transaction` for cloneSubaccounts on a PGlite database. */
export const pgliteTransaction = (pglite) => (run) =>
  pglite.transaction((tx) => run((text, params) => tx.query(text, params)));
