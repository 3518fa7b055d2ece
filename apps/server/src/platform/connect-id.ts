import type { Db } from '../db/client';
import type { SubaccountResolver } from './guard';

/**
 * A `{connectId}` in a route is a sub-account id or the id of something that belongs to one
 * (a connection). Features register how their ids map to a sub-account, by id prefix.
 */
type ConnectIdLookup = (db: Db, id: string) => Promise<string | null>;
const lookups = new Map<string, ConnectIdLookup>();

export const registerConnectIdPrefix = (prefix: string, lookup: ConnectIdLookup) => {
  lookups.set(prefix, lookup);
};

export const subaccountOfConnectId = async (db: Db, connectId: string): Promise<string | null> => {
  if (connectId.startsWith('sub_')) return connectId;
  const lookup = lookups.get(connectId.split('_')[0] ?? '');
  return lookup ? lookup(db, connectId) : null;
};

export const fromConnectId =
  (param = 'connectId'): SubaccountResolver =>
  async (request, deps) => {
    const value = (request.params as Record<string, string | undefined>)[param];
    return value ? subaccountOfConnectId(deps.db, value) : null;
  };
