/**
 * Credits taken back and given back by refunds and disputes. Taking back draws on the grants the
 * payment bought first, then on the rest of the balance in spend order; what the balance cannot
 * cover is owed (credit_debts) and paid first by every later grant. Giving back cancels what is still
 * owed and grants the rest again. Every function runs under the account lock (lockAccount first).
 */
import { and, asc, eq, gt, inArray, like, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { newId } from '../../platform/ids';
import { addGrant, roundCredits } from './ledger-repo';
import { creditDebts } from './reversals-schema';
import { creditAllocations, creditEntries, creditGrants } from './schema';

/** The grants a payment bought: a subscription invoice's period, a pack, a lifetime purchase, an auto-recharge. */
export const grantsBoughtBy = async (
  tx: Tx,
  accountId: string,
  payment: { invoiceId: string | null; checkoutId: string | null },
) => {
  const keys: string[] = [];
  if (payment.invoiceId) keys.push(`invoice:${payment.invoiceId}`, `recharge:${payment.invoiceId}`);
  if (payment.checkoutId) keys.push(`checkout:${payment.checkoutId}`);
  const conditions = [keys.length ? inArray(creditGrants.sourceKey, keys) : undefined];
  if (payment.checkoutId) conditions.push(like(creditGrants.sourceKey, `lifetime:${payment.checkoutId}:%`));
  const matching = conditions.filter((condition) => condition !== undefined);
  if (!matching.length) return [];
  return tx
    .select({ id: creditGrants.id, amount: creditGrants.amount, expiresAt: creditGrants.expiresAt })
    .from(creditGrants)
    .where(and(eq(creditGrants.accountId, accountId), or(...matching)));
};

/** Credits the account owes (0 when none). */
export const debtOf = async (tx: Tx, accountId: string): Promise<number> => {
  const [row] = await tx
    .select({ credits: creditDebts.credits })
    .from(creditDebts)
    .where(eq(creditDebts.accountId, accountId));
  return roundCredits(Number(row?.credits ?? 0));
};

const addDebt = async (tx: Tx, accountId: string, credits: number) => {
  if (credits === 0) return;
  await tx
    .insert(creditDebts)
    .values({ accountId, credits: Math.max(0, credits) })
    .onConflictDoUpdate({
      target: creditDebts.accountId,
      set: { credits: sql`greatest(0, ${creditDebts.credits} + ${credits})`, updatedAt: new Date() },
    });
};

/** Writes one correction entry drawing `parts` from their grants; null when the key was already used. */
const drawFrom = async (
  tx: Tx,
  accountId: string,
  parts: { grantId: string; amount: number }[],
  key: string,
  description: string,
): Promise<number | null> => {
  const total = roundCredits(parts.reduce((sum, part) => sum + part.amount, 0));
  if (total <= 0) return 0;
  const entryId = newId('creditEntry');
  const inserted = await tx
    .insert(creditEntries)
    .values({ id: entryId, accountId, kind: 'correction', amount: -total, idempotencyKey: key, description })
    .onConflictDoNothing()
    .returning({ id: creditEntries.id });
  if (!inserted[0]) return null;
  await tx.insert(creditAllocations).values(parts.map((part) => ({ entryId, ...part })));
  for (const part of parts) {
    await tx
      .update(creditGrants)
      .set({ remaining: sql`${creditGrants.remaining} - ${part.amount}` })
      .where(eq(creditGrants.id, part.grantId));
  }
  return total;
};

/**
 * Takes `credits` back: from `preferred` grants first, then the others in spend order (expired
 * grants hold nothing). What the balance cannot cover is added to the debt. `key` names the ledger
 * entry (one per provider event). Answers what was taken and what is now owed.
 */
export const takeBack = async (
  tx: Tx,
  input: { accountId: string; credits: number; preferred: string[]; key: string; description: string },
): Promise<{ taken: number; owed: number }> => {
  const wanted = roundCredits(input.credits);
  if (wanted <= 0) return { taken: 0, owed: 0 };
  const grants = await tx
    .select({ id: creditGrants.id, remaining: creditGrants.remaining })
    .from(creditGrants)
    .where(and(eq(creditGrants.accountId, input.accountId), gt(creditGrants.remaining, 0)))
    .orderBy(
      sql`case ${creditGrants.kind} when 'plan' then 0 when 'promo' then 1 when 'bonus' then 2 else 3 end`,
      sql`${creditGrants.expiresAt} asc nulls last`,
      asc(creditGrants.createdAt),
      asc(creditGrants.id),
    );
  const preferred = new Set(input.preferred);
  const ordered = [
    ...grants.filter((grant) => preferred.has(grant.id)),
    ...grants.filter((grant) => !preferred.has(grant.id)),
  ];
  let left = wanted;
  const parts: { grantId: string; amount: number }[] = [];
  for (const grant of ordered) {
    if (left <= 0) break;
    const take = roundCredits(Math.min(Number(grant.remaining), left));
    if (take <= 0) continue;
    parts.push({ grantId: grant.id, amount: take });
    left = roundCredits(left - take);
  }
  const taken = await drawFrom(tx, input.accountId, parts, input.key, input.description);
  // The same key again (a replay): it was taken then.
  if (taken === null) return { taken: 0, owed: 0 };
  const owed = roundCredits(wanted - taken);
  await addDebt(tx, input.accountId, owed);
  return { taken, owed };
};

/**
 * Gives back `credits` a reversal took (a dispute won): first what it still has in the debt
 * (`owed`, as far as the debt still holds it), then the rest as a correction grant ending when the
 * payment's own grants end. Answers how much of each.
 */
export const giveBack = async (
  tx: Tx,
  input: {
    accountId: string;
    credits: number;
    owed: number;
    expiresAt: Date | null;
    key: string;
    description: string;
  },
): Promise<{ cancelled: number; granted: number }> => {
  const wanted = roundCredits(input.credits);
  if (wanted <= 0) return { cancelled: 0, granted: 0 };
  const cancelled = roundCredits(Math.min(wanted, input.owed, await debtOf(tx, input.accountId)));
  await addDebt(tx, input.accountId, -cancelled);
  const granted = roundCredits(wanted - cancelled);
  if (granted > 0) {
    await addGrant(tx, {
      accountId: input.accountId,
      kind: 'correction',
      amount: granted,
      sourceKey: input.key,
      expiresAt: input.expiresAt,
      description: input.description,
    });
  }
  return { cancelled, granted };
};

/**
 * Pays the account's debt from a grant just added (ledger-repo's insertGrant calls it): the grant
 * keeps only what is left after the debt.
 */
export const payDebtFrom = async (tx: Tx, accountId: string, grantId: string, amount: number) => {
  const debt = await debtOf(tx, accountId);
  if (debt <= 0 || amount <= 0) return;
  const pay = roundCredits(Math.min(debt, amount));
  const paid = await drawFrom(
    tx,
    accountId,
    [{ grantId, amount: pay }],
    `debt:${grantId}`,
    'Credits owed after a refund or dispute',
  );
  await addDebt(tx, accountId, -(paid ?? 0));
};
