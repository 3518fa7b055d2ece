import { seedAgency } from '../seed';
import type { TestApp } from './harness';

/**
 * A new agency with one sub-account, and a caller of the API as its owner (session cookie and
 * the sub-account header), answering the status and the parsed body.
 */
export const newAgencyCaller = async (t: TestApp, accountName: string, ownerEmail: string) => {
  const agency = await seedAgency(t.deps.db, {
    accountName,
    owner: { email: ownerEmail, name: 'Owner' },
    subaccounts: ['Main'],
  });
  const headers = { cookie: await t.cookieFor(agency.ownerId), 'x-subaccount-id': agency.subaccountIds[0] as string };
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json() };
  };
  return { agency, call };
};
