import { and, asc, eq, gt, isNotNull, lte, type SQL, sql } from 'drizzle-orm';
import { arrayParam, insertRows } from '../../db/bulk-insert';
import { type Db, rowsOf, type Tx } from '../../db/client';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { accounts } from '../tenancy/schema';
import { payDebtFrom } from './reversal-ledger';
import { billingAccounts, creditAllocations, creditEntries, creditGrants } from './schema';

/** Credits are kept to 6 decimals; every amount passes through here before it is stored. */
export const roundCredits = (value: number): number => Math.round(value * 1e6) / 1e6;

export type GrantKind = 'plan' | 'bonus' | 'promo' | 'correction';
const ENTRY_KIND = {
  plan: 'plan_grant',
  bonus: 'bonus_grant',
  promo: 'promo_grant',
  correction: 'correction',
} as const;

/** The order grants are spent in: plan credits first, then promo, then bonus, soonest expiry first. */
const SPEND_ORDER = sql`case ${creditGrants.kind} when 'plan' then 0 when 'promo' then 1 when 'bonus' then 2 else 3 end`;

export const FREE_GRANT_KEY = 'free-plan';

/** The class of the per-account lock credit holds take (reserve_credit_holds, migration 0019). */
const HOLDS_LOCK_CLASS = 7_423_002;

/**
 * Takes the per-account lock (the billing_accounts row, FOR UPDATE) for the rest of the transaction,
 * creating the row and the free plan's starting grant the first time, and expires grants that are due.
 * The row is only ever created here, together with that grant, so an account whose row exists needs
 * one statement for the lock. It also takes the lock of the account's credit holds, so no call is
 * admitted while the balance changes, except for metering (`holds: false`): a debit only turns a
 * call's hold into its cost, so calls may be admitted beside it.
 */
export const lockAccount = async (
  tx: Tx,
  accountId: string,
  freeCredits: number,
  now = new Date(),
  options: { holds?: boolean } = {},
) => {
  const lockRow = () => tx.select().from(billingAccounts).where(eq(billingAccounts.accountId, accountId)).for('update');
  let [row] = await lockRow();
  if (!row) {
    const found = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
    if (!found[0]) throw new AppError('NOT_FOUND', 'Account not found');
    await tx.insert(billingAccounts).values({ accountId }).onConflictDoNothing();
    [row] = await lockRow();
    if (!row) throw new AppError('NOT_FOUND', 'Account not found');
    await addGrant(tx, {
      accountId,
      kind: 'plan',
      amount: freeCredits,
      sourceKey: FREE_GRANT_KEY,
      description: 'Free plan',
    });
  }
  // Always after the row lock (never before it), so two ledger writes cannot wait for each other.
  if (options.holds !== false) {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${HOLDS_LOCK_CLASS}, hashtext(${accountId}))`);
  }
  await expireDue(tx, accountId, now);
  return row;
};

export interface GrantInput {
  accountId: string;
  kind: GrantKind;
  amount: number;
  sourceKey: string;
  startsAt?: Date | null;
  expiresAt?: Date | null;
  description?: string;
}

/** Adds a grant and its ledger entry once per (account, sourceKey); answers false for a replay. */
export const addGrant = async (tx: Tx, input: GrantInput): Promise<boolean> => Boolean(await insertGrant(tx, input));

const insertGrant = async (tx: Tx, input: GrantInput): Promise<string | null> => {
  const amount = roundCredits(input.amount);
  if (!(amount >= 0)) throw new AppError('VALIDATION_ERROR', 'A grant cannot be negative', { field: 'amount' });
  const inserted = await tx
    .insert(creditGrants)
    .values({
      id: newId('creditGrant'),
      accountId: input.accountId,
      kind: input.kind,
      amount,
      remaining: amount,
      sourceKey: input.sourceKey,
      startsAt: input.startsAt ?? null,
      expiresAt: input.expiresAt ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: creditGrants.id });
  const grant = inserted[0];
  if (!grant) return null;
  await tx.insert(creditEntries).values({
    id: newId('creditEntry'),
    accountId: input.accountId,
    kind: ENTRY_KIND[input.kind],
    amount,
    grantId: grant.id,
    idempotencyKey: `grant:${input.sourceKey}`,
    description: input.description ?? null,
  });
  // Credits owed after a refund or dispute are paid first from what comes in.
  await payDebtFrom(tx, input.accountId, grant.id, amount);
  return grant.id;
};

/**
 * Adds the plan grant of a billing period once (keyed by invoice). A newer period replaces older
 * plan grants (their rest expires); a grant for a period older than one already granted arrives
 * expired, so events handled out of order end in the same balance.
 */
export const addPlanPeriodGrant = async (
  tx: Tx,
  input: Omit<GrantInput, 'kind' | 'startsAt'> & { startsAt: Date },
): Promise<boolean> => {
  const id = await insertGrant(tx, { ...input, kind: 'plan' });
  if (!id) return false;
  const others = await tx
    .select({ id: creditGrants.id, startsAt: creditGrants.startsAt, remaining: creditGrants.remaining })
    .from(creditGrants)
    .where(and(eq(creditGrants.accountId, input.accountId), eq(creditGrants.kind, 'plan')));
  let newerExists = false;
  for (const other of others) {
    if (other.id === id) continue;
    if (other.startsAt && other.startsAt.getTime() > input.startsAt.getTime()) newerExists = true;
    else await expireGrant(tx, input.accountId, other.id, other.remaining, 'Replaced by a new billing period');
  }
  if (newerExists) {
    const [own] = await tx
      .select({ remaining: creditGrants.remaining })
      .from(creditGrants)
      .where(eq(creditGrants.id, id));
    await expireGrant(tx, input.accountId, id, Number(own?.remaining ?? 0), 'Older billing period');
  }
  return true;
};

/** Writes an expiry entry for every grant past its end that still holds credits, and empties it. */
export const expireDue = async (tx: Tx, accountId: string, now: Date) => {
  const due = await tx
    .select({ id: creditGrants.id, remaining: creditGrants.remaining })
    .from(creditGrants)
    .where(
      and(
        eq(creditGrants.accountId, accountId),
        isNotNull(creditGrants.expiresAt),
        lte(creditGrants.expiresAt, now),
        gt(creditGrants.remaining, 0),
      ),
    );
  for (const grant of due) await expireGrant(tx, accountId, grant.id, grant.remaining, 'Credits expired');
};

export const expireGrant = async (
  tx: Tx,
  accountId: string,
  grantId: string,
  remaining: number,
  description: string,
) => {
  if (remaining <= 0) return;
  await tx.update(creditGrants).set({ remaining: 0 }).where(eq(creditGrants.id, grantId));
  await tx
    .insert(creditEntries)
    .values({
      id: newId('creditEntry'),
      accountId,
      kind: 'expiry',
      amount: -remaining,
      grantId,
      idempotencyKey: `expiry:${grantId}`,
      description,
    })
    .onConflictDoNothing();
};

export interface SpendResult {
  /** Credits actually taken from the grants. */
  charged: number;
  /** The key had already been used: nothing changed. */
  duplicate: boolean;
}

export interface SpendItem {
  amount: number;
  idempotencyKey: string;
  description?: string;
}

/**
 * Spends credits across grants in spend order under the account lock (call lockAccount first).
 * strict: refuse with BILLING_INSUFFICIENT_CREDITS when the balance cannot cover an amount;
 * otherwise take what is there (metering a call that already ran never drives a grant below zero).
 */
export const spendCredits = async (
  tx: Tx,
  input: SpendItem & { accountId: string; strict: boolean },
): Promise<SpendResult> => {
  const [result] = await spendMany(tx, { accountId: input.accountId, strict: input.strict, items: [input] });
  return result as SpendResult;
};

/** What spending several amounts comes to: the results, and the ledger writes that record it. */
export interface SpendPlan {
  results: SpendResult[];
  /** The writes, as parts of one WITH statement (runTogether). */
  writes: SQL[];
}

/**
 * Works out spending several amounts of one account, in the order given: one ledger entry per
 * amount (a key already used answers `duplicate` and changes nothing), its allocations to grants in
 * spend order, and one update of the grants touched. Reads under the account lock; writes nothing.
 */
export const planSpend = async (
  tx: Tx,
  input: {
    accountId: string;
    strict: boolean;
    items: SpendItem[];
    /** The caller knows none of the keys was used: no lookup. */
    keysNew?: boolean;
  },
): Promise<SpendPlan> => {
  for (const item of input.items) {
    if (!(roundCredits(item.amount) >= 0)) {
      throw new AppError('VALIDATION_ERROR', 'Credits must not be negative', { field: 'credits' });
    }
  }
  const charged = new Map<string, number>();
  if (!input.keysNew) {
    const keys = [...new Set(input.items.map((item) => item.idempotencyKey))];
    // One array parameter, so the same statement text for any number of keys.
    const existing = rowsOf<{ key: string; amount: string | number }>(
      await tx.execute(sql`
        SELECT k.key, e.amount FROM unnest(${arrayParam(keys, (key) => key)}::text[]) AS k(key)
        CROSS JOIN LATERAL (
          SELECT ${creditEntries.amount} AS amount FROM ${creditEntries}
          WHERE ${creditEntries.accountId} = ${input.accountId} AND ${creditEntries.idempotencyKey} = k.key
        ) AS e`),
    );
    for (const row of existing) charged.set(row.key, -Number(row.amount));
  }
  const grants = await tx
    .select({ id: creditGrants.id, remaining: creditGrants.remaining })
    .from(creditGrants)
    .where(and(eq(creditGrants.accountId, input.accountId), gt(creditGrants.remaining, 0)))
    .orderBy(
      SPEND_ORDER,
      sql`${creditGrants.expiresAt} asc nulls last`,
      asc(creditGrants.createdAt),
      asc(creditGrants.id),
    );
  const taken = new Map<string, number>();
  const entries: {
    id: string;
    accountId: string;
    kind: 'usage_debit';
    amount: number;
    idempotencyKey: string;
    description: string | null;
  }[] = [];
  const allocations: { entryId: string; grantId: string; amount: number }[] = [];
  const results: SpendResult[] = [];
  for (const item of input.items) {
    const done = charged.get(item.idempotencyKey);
    if (done !== undefined) {
      results.push({ charged: done, duplicate: true });
      continue;
    }
    const wanted = roundCredits(item.amount);
    const available = roundCredits(grants.reduce((sum, grant) => sum + grant.remaining, 0));
    if (input.strict && available < wanted) {
      throw new AppError('BILLING_INSUFFICIENT_CREDITS', 'Insufficient credits. Please add more to continue.');
    }
    const entryId = newId('creditEntry');
    let left = Math.min(wanted, available);
    let total = 0;
    for (const grant of grants) {
      if (left <= 0) break;
      const take = roundCredits(Math.min(grant.remaining, left));
      if (take <= 0) continue;
      grant.remaining = roundCredits(grant.remaining - take);
      taken.set(grant.id, roundCredits((taken.get(grant.id) ?? 0) + take));
      allocations.push({ entryId, grantId: grant.id, amount: take });
      left = roundCredits(left - take);
      total = roundCredits(total + take);
    }
    entries.push({
      id: entryId,
      accountId: input.accountId,
      kind: 'usage_debit',
      amount: -total,
      idempotencyKey: item.idempotencyKey,
      description: item.description ?? null,
    });
    charged.set(item.idempotencyKey, total);
    results.push({ charged: total, duplicate: false });
  }
  if (entries.length === 0) return { results, writes: [] };
  const touched = [...taken];
  const writes = [
    insertRows(
      creditEntries,
      {
        id: ['text', (entry) => entry.id],
        account_id: ['text', (entry) => entry.accountId],
        kind: ['text', (entry) => entry.kind],
        amount: ['numeric', (entry) => entry.amount],
        idempotency_key: ['text', (entry) => entry.idempotencyKey],
        description: ['text', (entry) => entry.description],
      },
      entries,
    ),
    insertRows(
      creditAllocations,
      {
        entry_id: ['text', (allocation) => allocation.entryId],
        grant_id: ['text', (allocation) => allocation.grantId],
        amount: ['numeric', (allocation) => allocation.amount],
      },
      allocations,
    ),
    sql`UPDATE ${creditGrants} SET remaining = ${creditGrants}.remaining - v.amount
      FROM unnest(
        ${arrayParam(touched, ([grantId]) => grantId)}::text[],
        ${arrayParam(touched, ([, amount]) => amount)}::numeric[]) AS v(id, amount)
      WHERE ${creditGrants}.id = v.id`,
  ];
  return { results, writes };
};

/**
 * Runs writes as the parts of one WITH statement: one round trip, all or nothing. PostgreSQL runs
 * each part once, whether or not anything reads it; no two parts may change the same row.
 */
export const runTogether = async (tx: Tx, writes: SQL[]): Promise<void> => {
  if (writes.length === 0) return;
  const parts = sql.join(
    writes.map((write, index) => sql`${sql.raw(`w${index}`)} AS (${write})`),
    sql`, `,
  );
  await tx.execute(sql`WITH ${parts} SELECT 1`);
};

/**
 * Spends several amounts of one account (planSpend) and records them in one statement. Answers
 * one result per item.
 */
export const spendMany = async (
  tx: Tx,
  input: { accountId: string; strict: boolean; items: SpendItem[] },
): Promise<SpendResult[]> => {
  const plan = await planSpend(tx, input);
  await runTogether(tx, plan.writes);
  return plan.results;
};

/** The balance is the sum of the ledger entries. */
export const sumEntries = async (db: Db | Tx, accountId: string): Promise<number> => {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${creditEntries.amount}), 0)` })
    .from(creditEntries)
    .where(eq(creditEntries.accountId, accountId));
  return roundCredits(Number(row?.total ?? 0));
};

/** Granted and remaining credits per grant kind, for the usage screen. */
export const grantTotals = async (db: Db | Tx, accountId: string, now = new Date()) => {
  const rows = await db
    .select({
      kind: creditGrants.kind,
      granted: sql<string>`coalesce(sum(${creditGrants.amount}), 0)`,
      remaining: sql<string>`coalesce(sum(case when ${creditGrants.expiresAt} is null or ${creditGrants.expiresAt} > ${now.toISOString()} then ${creditGrants.remaining} else 0 end), 0)`,
    })
    .from(creditGrants)
    .where(eq(creditGrants.accountId, accountId))
    .groupBy(creditGrants.kind);
  const totals = { plan: { granted: 0, remaining: 0 }, extra: { granted: 0, remaining: 0 } };
  for (const row of rows) {
    const target = row.kind === 'plan' ? totals.plan : totals.extra;
    target.granted = roundCredits(target.granted + Number(row.granted));
    target.remaining = roundCredits(target.remaining + Number(row.remaining));
  }
  return totals;
};
