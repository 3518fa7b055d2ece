-- Reserves the estimated cost of model calls of one account in one round trip (PostgreSQL path of
-- the credit holds, features/billing/ledger.ts reserveHolds). Holds take a per-account lock of their
-- own (a transaction-level advisory lock, class 7423002) instead of the account row: metering, which
-- keeps the row locked while it debits a batch, does not hold up the calls starting meanwhile. A
-- debit only turns a call's hold into its cost in one commit, so a hold admitted beside it sees a
-- balance no larger than the real one; every other ledger write (grants, plan changes, refunds)
-- takes this lock too (ledger-repo.ts lockAccount). As a VOLATILE function, each statement after the
-- lock takes a fresh snapshot, so it sees every hold committed before the lock was granted. A call
-- is admitted, in order, when spendable grants less live holds cover its estimate. Answers the
-- admitted ids, or NULL when the account has no billing row yet (the caller creates it with its
-- free grant and asks again).
CREATE OR REPLACE FUNCTION reserve_credit_holds(
  p_account text,
  p_ids text[],
  p_subaccounts text[],
  p_amounts numeric[],
  p_expires timestamptz[]
) RETURNS text[] LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  available numeric;
  accepted text[] := '{}';
BEGIN
  PERFORM pg_advisory_xact_lock(7423002, hashtext(p_account));
  PERFORM 1 FROM billing_accounts WHERE account_id = p_account;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  SELECT (SELECT coalesce(sum(remaining), 0) FROM credit_grants
           WHERE account_id = p_account AND (expires_at IS NULL OR expires_at > now()))
       - (SELECT coalesce(sum(amount), 0) FROM credit_holds
           WHERE account_id = p_account AND expires_at > now())
    INTO available;
  FOR i IN 1 .. coalesce(array_length(p_ids, 1), 0) LOOP
    IF available > 0 AND available >= p_amounts[i] THEN
      available := available - p_amounts[i];
      accepted := accepted || p_ids[i];
    END IF;
  END LOOP;
  INSERT INTO credit_holds (id, account_id, subaccount_id, amount, expires_at)
  SELECT r.id, p_account, r.subaccount_id, r.amount, r.expires_at
  FROM unnest(p_ids, p_subaccounts, p_amounts, p_expires) AS r(id, subaccount_id, amount, expires_at)
  WHERE r.id = ANY (accepted);
  RETURN accepted;
END;
$$;
