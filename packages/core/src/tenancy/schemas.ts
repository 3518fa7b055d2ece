import { z } from 'zod';
import { ZEmail } from '../auth/schemas';

/**
 * Roles in a sub-account, lowest first. `client` is a person of the client business (the portal):
 * below viewer, so a route admits a client only where its rule names what clients may do there.
 */
export const ROLES = ['client', 'viewer', 'member', 'admin'] as const;
export const ZRole = z.enum(ROLES);
export type TRole = z.infer<typeof ZRole>;

/** True when `role` is at least `needed` in the order client < viewer < member < admin. */
export const roleAtLeast = (role: TRole, needed: TRole): boolean => ROLES.indexOf(role) >= ROLES.indexOf(needed);

export const ZSubaccountName = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(80, 'Name must be at most 80 characters');

export const ZSubaccount = z.object({
  id: z.string(),
  accountId: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  role: ZRole,
  agentCount: z.number().int(),
  locked: z.boolean(),
  createdAt: z.string(),
});
export type TSubaccount = z.infer<typeof ZSubaccount>;

export const ZAccount = z.object({
  id: z.string(),
  name: z.string(),
  isOwner: z.boolean(),
  /**
   * The caller manages the agency (its owner, or an admin of every sub-account): its plan, invoices,
   * card, credits and every client's usage, and adding clients. Anyone else sees the usage and
   * allowances of their own sub-accounts only.
   */
  canManageBilling: z.boolean(),
  subaccounts: z.array(ZSubaccount),
});
export type TAccount = z.infer<typeof ZAccount>;

export const ZAccountsResponse = z.object({ accounts: z.array(ZAccount) });
export type TAccountsResponse = z.infer<typeof ZAccountsResponse>;

export const ZCreateSubaccountRequest = z.object({ accountId: z.string().min(1), name: ZSubaccountName });
export type TCreateSubaccountRequest = z.infer<typeof ZCreateSubaccountRequest>;

export const ZMember = z.object({
  userId: z.string().nullable(),
  inviteId: z.string().nullable(),
  email: z.string(),
  name: z.string(),
  role: ZRole,
  status: z.enum(['active', 'invited']),
  /** The agency's owner: stays admin; ownership moves only by the owner's transfer. */
  isOwner: z.boolean().default(false),
});
export type TMember = z.infer<typeof ZMember>;
export const ZMembersResponse = z.object({
  members: z.array(ZMember),
  myRole: ZRole,
  /** The caller owns the agency (may transfer ownership). */
  iAmOwner: z.boolean().default(false),
});

/** POST /api/accounts/{accountId}/transfer-ownership: the owner hands the agency to an admin. */
export const ZTransferOwnershipRequest = z.object({ userId: z.string().min(1).max(64) });
export type TTransferOwnershipRequest = z.infer<typeof ZTransferOwnershipRequest>;
export const ZTransferOwnershipResponse = z.object({ accountId: z.string(), ownerUserId: z.string() });
export type TTransferOwnershipResponse = z.infer<typeof ZTransferOwnershipResponse>;
export type TMembersResponse = z.infer<typeof ZMembersResponse>;

export const ZInviteMemberRequest = z.object({ email: ZEmail, role: ZRole });
export type TInviteMemberRequest = z.input<typeof ZInviteMemberRequest>;
export const ZChangeRoleRequest = z.object({ role: ZRole });

export const ZMeResponse = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string(), image: z.string().nullable() }),
  accounts: z.array(ZAccount),
});
export type TMeResponse = z.infer<typeof ZMeResponse>;

/** GET /api/connect-context/{connectId}: what a connection-area id belongs to. */
export const ZConnectContext = z.object({
  connectId: z.string(),
  subaccountId: z.string(),
  accountId: z.string(),
  role: ZRole,
});
export type TConnectContext = z.infer<typeof ZConnectContext>;
