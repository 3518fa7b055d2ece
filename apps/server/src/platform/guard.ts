import { clientAccessOf, roleAtLeast, type TClientAccess, type TClientGate, type TRole } from '@switchboard/core';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { type Caller, callerFromSession } from '../features/auth/session';
import { memberships, subaccounts } from '../features/tenancy/schema';
import { type AccountScope, type AccountView, accountScopeFor } from './account-scope';
import { admitClient, isClientOnly } from './client-gate';
import type { Deps } from './deps';
import { AppError } from './errors';
import { TtlCache } from './ttl-cache';

/** Finds the sub-account a request is about; undefined means "not found" (answered 404). */
export type SubaccountResolver = (request: FastifyRequest, deps: Deps) => Promise<string | undefined | null>;

/**
 * What a route needs, declared in its config (`config: { access: ... }`):
 * - `public`: anyone, the caller is still resolved when a session exists;
 * - `user`: a signed-in user (session or API key), who owns the thing the route is about when
 *   `owns` is given;
 * - `subaccount`: a signed-in user with at least `role` in the sub-account the resolver finds; with
 *   `account`, the route is about the whole account (its money, its clients): `manage` admits only
 *   the account's manager (account-scope.ts), `scope` admits anyone and gives the route the
 *   sub-accounts the caller may see (accountScopeOf);
 * - `operator`: a signed-in user (session, not an API key) whose email is in OPERATOR_EMAILS; anyone
 *   else is answered 404, as for a thing that does not exist.
 *
 * Clients (role `client`, the people of a client business in the portal) pass a `subaccount` rule
 * only where it names what admits them (`client`: `read`, or a switch the agency has on for that
 * sub-account, else 403); a rule naming none answers them 404, as to a non-member. A `user` rule
 * refuses a person who is only a client anywhere (404) unless it sets `clients`.
 */
export type AccessRule =
  | { kind: 'public' }
  | { kind: 'operator' }
  | { kind: 'user'; owns?: OwnershipCheck; sessionOnly?: boolean; clients?: boolean }
  | {
      kind: 'subaccount';
      role: TRole;
      subaccount: SubaccountResolver;
      allowLocked?: boolean;
      account?: AccountAccess;
      client?: TClientGate;
    };

/** How a route reaches the account of its sub-account: as its manager, or scoped to the caller's clients. */
export type AccountAccess = 'manage' | 'scope';

export interface Tenant {
  subaccountId: string;
  accountId: string;
  role: TRole;
  /** Locked by the plan (more sub-accounts than it allows): reads only, see lockedSubaccount(). */
  locked?: boolean;
  /** What the caller may see of the account, for routes that declare `account`. */
  account?: AccountScope;
  /** What the agency lets this sub-account's clients do. */
  clientAccess?: TClientAccess;
}

export interface GuardedRoute {
  method: string;
  url: string;
  access: AccessRule;
  schema?: { body?: unknown; querystring?: unknown; params?: unknown };
}

/** For `user` routes about one thing of the caller's (a sandbox checkout): does the caller own it? */
export type OwnershipCheck = (request: FastifyRequest, deps: Deps, caller: Caller) => Promise<boolean>;

export type CallerResolver = (request: FastifyRequest, deps: Deps) => Promise<Caller | null>;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessRule;
  }
  interface FastifyRequest {
    caller: Caller | null;
    tenant: Tenant | null;
  }
  interface FastifyInstance {
    deps: Deps;
    callerResolvers: CallerResolver[];
    /** Every guarded route with its declared rule and schema, for tests and the API reference. */
    guardedRoutes: GuardedRoute[];
  }
}

export const publicAccess = (): { access: AccessRule } => ({ access: { kind: 'public' } });
/**
 * A signed-in user. `owns`: the caller must own the thing the route is about. `sessionOnly`: not
 * with an API key, which is bound to one sub-account (creating sub-accounts, say).
 */
export const userAccess = (
  options: { owns?: OwnershipCheck; sessionOnly?: boolean; clients?: boolean } = {},
): { access: AccessRule } => ({
  access: { kind: 'user', ...options },
});
/** The platform's operators only (OPERATOR_EMAILS); routes under /api/operator/. */
export const operatorOnly = (): { access: AccessRule } => ({ access: { kind: 'operator' } });

/** Whether the caller is one of the platform's operators. */
export const isOperator = (deps: Deps, caller: Caller | null): boolean =>
  Boolean(caller && !caller.apiKeyId && deps.env.OPERATOR_EMAILS.includes(caller.email.trim().toLowerCase()));

/**
 * A member of the sub-account with at least `role`. A sub-account locked by the plan answers every
 * write with 403 (lockedSubaccount) unless the route sets `allowLocked` (billing: the way out).
 * `account`: the route is about the whole account (see AccessRule). `client`: what admits a client.
 */
export const subaccountAccess = (
  role: TRole,
  subaccount: SubaccountResolver,
  options: { allowLocked?: boolean; account?: AccountAccess; client?: TClientGate } = {},
): { access: AccessRule } => ({
  access: { kind: 'subaccount', role, subaccount, ...options },
});

/** The answer to a caller who is not the account's manager on a route about the agency's money. */
export const notAccountManager = () =>
  new AppError('FORBIDDEN', "Only the agency's owner or an admin of all its sub-accounts can manage billing", {
    reason: 'account_manager_required',
  });

/** The answer to a write on a locked sub-account: why, and the way to unlock it. */
export const lockedSubaccount = () =>
  new AppError(
    'BILLING_ACTIVE_SUBSCRIPTION_REQUIRED',
    'This sub-account is locked: your plan allows fewer active sub-accounts. Upgrade your plan, or choose it as your active sub-account, to use it again.',
    { reason: 'subaccount_locked', status: 403 },
  );

/** Drops cached memberships of a sub-account in every process (its lock changed). */
export const publishSubaccountLockChange = (deps: Deps, subaccountId: string) =>
  deps.bus.publish(MEMBERSHIPS_CHANNEL, { subaccountId });

/** The sub-account named by a route parameter. */
export const fromParam =
  (name: string): SubaccountResolver =>
  async (request) =>
    (request.params as Record<string, string | undefined>)[name];

/**
 * The caller's current sub-account for workspace-level routes: the `X-Subaccount-Id` header,
 * else the first sub-account the caller belongs to.
 */
export const fromCurrentSubaccount = (): SubaccountResolver => async (request, deps) => {
  const caller = request.caller;
  if (caller?.apiKeySubaccountId) return caller.apiKeySubaccountId;
  const header = request.headers['x-subaccount-id'];
  if (typeof header === 'string' && header) return header;
  if (!caller) return undefined;
  const first = await deps.db
    .select({ id: memberships.subaccountId })
    .from(memberships)
    .where(eq(memberships.userId, caller.userId))
    .orderBy(memberships.createdAt)
    .limit(1);
  return first[0]?.id;
};

/**
 * The caller's sub-account in the account named by the `accountId` parameter, so the guard finds
 * their role and the manager rule applies; an account the caller is not in is not found.
 */
export const fromAccountParam: SubaccountResolver = async (request, deps) => {
  const accountId = (request.params as { accountId?: unknown }).accountId;
  const caller = request.caller;
  if (typeof accountId !== 'string' || accountId.length > 64 || !caller) return undefined;
  const [row] = await deps.db
    .select({ id: subaccounts.id })
    .from(memberships)
    .innerJoin(subaccounts, eq(subaccounts.id, memberships.subaccountId))
    .where(and(eq(memberships.userId, caller.userId), eq(subaccounts.accountId, accountId)))
    .orderBy(memberships.createdAt)
    .limit(1);
  return row?.id;
};

/** A route under /api/accounts/{accountId}/… for the account's manager, from a locked sub-account too. */
export const accountManagerOfParam = () =>
  subaccountAccess('viewer', fromAccountParam, { allowLocked: true, account: 'manage' });

/**
 * Memberships found by the guard, kept 2 s: every request of a busy API key or widget checks one.
 * Only memberships that exist are kept (a new one is seen at once); a role change or removal
 * publishes on MEMBERSHIPS_CHANNEL, which drops the entry in every process.
 */
const membershipCache = new TtlCache<Tenant | null>(2000);
export const MEMBERSHIPS_CHANNEL = 'memberships';
const membershipKey = (userId: string, subaccountId: string) => `${userId}:${subaccountId}`;

/** Tells every process that a user's membership of a sub-account changed. */
export const publishMembershipChange = (deps: Deps, userId: string, subaccountId: string) =>
  deps.bus.publish(MEMBERSHIPS_CHANNEL, { userId, subaccountId });

const findMembershipCached = (db: Db, userId: string, subaccountId: string): Promise<Tenant | null> =>
  membershipCache.getOrLoad(
    membershipKey(userId, subaccountId),
    () => findMembership(db, userId, subaccountId),
    (found) => found !== null,
  );

export const findMembership = async (db: Db, userId: string, subaccountId: string): Promise<Tenant | null> => {
  const rows = await db
    .select({
      role: memberships.role,
      accountId: subaccounts.accountId,
      locked: subaccounts.locked,
      clientAccess: subaccounts.clientAccess,
    })
    .from(memberships)
    .innerJoin(subaccounts, eq(subaccounts.id, memberships.subaccountId))
    .where(and(eq(memberships.userId, userId), eq(memberships.subaccountId, subaccountId)))
    .limit(1);
  const row = rows[0];
  return row
    ? {
        subaccountId,
        accountId: row.accountId,
        role: row.role,
        locked: row.locked,
        clientAccess: clientAccessOf(row.clientAccess),
      }
    : null;
};

/** The single tenant guard: every /api route declares its access rule, and this hook enforces it. */
export const installGuard = (app: FastifyInstance) => {
  app.decorateRequest('caller', null);
  app.decorateRequest('tenant', null);
  app.decorate('guardedRoutes', []);
  const unsubscribe = app.deps.bus.subscribe(MEMBERSHIPS_CHANNEL, (event) => {
    const { userId, subaccountId } = event as { userId?: string; subaccountId: string };
    if (userId) membershipCache.delete(membershipKey(userId, subaccountId));
    else membershipCache.deleteWhere((key) => key.endsWith(`:${subaccountId}`));
  });
  app.addHook('onClose', async () => unsubscribe());

  app.addHook('onRoute', (route) => {
    const url = route.url ?? '';
    const guarded = url.startsWith('/api/') || url.startsWith('/v1/') || url.startsWith('/stripe/');
    if (guarded && !route.config?.access && !url.startsWith('/api/docs')) {
      throw new Error(`Route ${route.method} ${url} declares no access rule`);
    }
    if (guarded && route.config?.access) {
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') {
          app.guardedRoutes.push({ method, url, access: route.config.access, schema: route.schema });
        }
      }
    }
  });

  // Authentication first, from headers alone: a signed-out caller gets 401 whatever the body
  // (before it is even parsed), and learns nothing of the route's schema.
  app.addHook('onRequest', async (request) => {
    const rule = request.routeOptions.config?.access;
    if (!rule) return;
    for (const resolve of app.callerResolvers) {
      request.caller = await resolve(request, app.deps);
      if (request.caller) break;
    }
    if (rule.kind !== 'public' && !request.caller) throw new AppError('UNAUTHORIZED', 'Please sign in to continue');
  });

  // Then access to the sub-account (from the route's parameters and headers), still before the
  // body is validated: a caller without access gets 404 or 403, never a 422 describing the schema.
  app.addHook('preValidation', async (request) => {
    const rule = request.routeOptions.config?.access;
    if (!rule || rule.kind === 'public' || !request.caller) return;
    if (rule.kind === 'operator') {
      if (!isOperator(app.deps, request.caller)) throw new AppError('NOT_FOUND', 'Not found');
      return;
    }
    if (rule.kind === 'user') {
      if (rule.sessionOnly && request.caller.apiKeyId) {
        throw new AppError('FORBIDDEN', 'An API key is bound to one sub-account and cannot do this');
      }
      if (!rule.clients && (await isClientOnly(app.deps.db, request.caller.userId))) {
        throw new AppError('NOT_FOUND', 'Not found');
      }
      if (rule.owns && !(await rule.owns(request, app.deps, request.caller)))
        throw new AppError('NOT_FOUND', 'Not found');
      return;
    }
    const subaccountId = await rule.subaccount(request, app.deps);
    if (!subaccountId || typeof subaccountId !== 'string' || subaccountId.length > 64) {
      throw new AppError('NOT_FOUND', 'Not found');
    }
    if (request.caller.apiKeySubaccountId && request.caller.apiKeySubaccountId !== subaccountId) {
      throw new AppError('NOT_FOUND', 'Not found');
    }
    const tenant = await findMembershipCached(app.deps.db, request.caller.userId, subaccountId);
    if (!tenant) throw new AppError('NOT_FOUND', 'Not found');
    if (tenant.role === 'client') admitClient(rule, tenant.clientAccess);
    else if (!roleAtLeast(tenant.role, rule.role)) {
      throw new AppError('FORBIDDEN', `This action needs the ${rule.role} role; you are a ${tenant.role}`);
    }
    if (tenant.locked && !rule.allowLocked && request.method !== 'GET' && request.method !== 'HEAD') {
      throw lockedSubaccount();
    }
    request.tenant = rule.account ? await withAccountScope(app.deps.db, request.caller, tenant, rule.account) : tenant;
  });
};

/** The tenant with the caller's scope in its account (a copy: the tenant may be the cached one). */
const withAccountScope = async (db: Db, caller: Caller, tenant: Tenant, access: AccountAccess): Promise<Tenant> => {
  const account = await accountScopeFor(db, caller, tenant.accountId);
  if (access === 'manage' && !account.manager) throw notAccountManager();
  return { ...tenant, account };
};

export const sessionCallerResolver: CallerResolver = (request, deps) => callerFromSession(deps.db, request);

/** The caller of a route whose rule guarantees one. */
export const callerOf = (request: FastifyRequest): Caller => {
  if (!request.caller) throw new AppError('UNAUTHORIZED', 'Please sign in to continue');
  return request.caller;
};

/** The tenant of a route whose rule is `subaccount`. */
export const tenantOf = (request: FastifyRequest): Tenant => {
  if (!request.tenant) throw new AppError('NOT_FOUND', 'Not found');
  return request.tenant;
};

/** The account and the caller's scope in it, on a route whose rule declares `account`. */
export const accountScopeOf = (request: FastifyRequest): AccountView => {
  const tenant = tenantOf(request);
  if (!tenant.account) throw new Error(`${request.routeOptions.url} declares no account access`);
  return { accountId: tenant.accountId, ...tenant.account };
};
