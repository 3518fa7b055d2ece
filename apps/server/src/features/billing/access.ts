/**
 * The two kinds of billing route, on the account of the current sub-account (`X-Subaccount-Id`).
 * Both work from a locked sub-account: billing is the way out of a lock.
 */
import { fromCurrentSubaccount, subaccountAccess } from '../../platform/guard';

/** The agency's money (plan, invoices, card, packs, promo codes, checkout, settings): its manager only. */
export const accountManager = () =>
  subaccountAccess('admin', fromCurrentSubaccount(), { allowLocked: true, account: 'manage' });

/** Usage and allowances: everyone in the account (clients too), each seeing the sub-accounts they belong to. */
export const clientScoped = () =>
  subaccountAccess('viewer', fromCurrentSubaccount(), { allowLocked: true, account: 'scope', client: 'read' });
