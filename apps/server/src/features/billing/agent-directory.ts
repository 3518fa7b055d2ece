import type { Db } from '../../db/client';
import type { AccountView } from '../../platform/account-scope';

/**
 * What billing shows of an account's agents, read by the agents feature (above billing): the app
 * passes its reads to billing's routes (app.ts), so billing imports nothing of agents.
 */
export interface AgentDirectory {
  /** Names of the account's agents the view may see, by id (usage grouped by agent). */
  namesIn: (db: Db, view: AccountView) => Promise<Map<string, string>>;
  /** How many agents each sub-account has (the choice of the sub-accounts kept active). */
  countsIn: (db: Db, subaccountIds: string[]) => Promise<Map<string, number>>;
}
