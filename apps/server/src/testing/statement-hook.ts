import type { Db } from '../db/client';

/**
 * The database with a hook before each `execute` (a sliced write's statements), given its count;
 * a hook may fail the statement by throwing, or let other requests in before it.
 */
export const onEachStatement = (db: Db, hook: (statement: number) => void): Db => {
  let statements = 0;
  return new Proxy(db, {
    get: (target, key, receiver) =>
      key === 'execute'
        ? async (query: Parameters<Db['execute']>[0]) => {
            statements += 1;
            hook(statements);
            return target.execute(query);
          }
        : Reflect.get(target, key, receiver),
  });
};
