-- Refunds and disputes: what each took back (payment_reversals) and credits owed beyond the balance
-- (credit_debts); commissions get adjustment rows (one per provider event) and affiliate payouts.
CREATE TABLE "affiliate_payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"affiliate_user_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"commission_count" integer NOT NULL,
	"reference" text NOT NULL,
	"method" text DEFAULT 'manual' NOT NULL,
	"transfer_id" text,
	"paid_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_debts" (
	"account_id" text PRIMARY KEY NOT NULL,
	"credits" numeric(20, 6) DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_debts_not_negative" CHECK ("credit_debts"."credits" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payment_reversals" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"account_id" text NOT NULL,
	"invoice_id" text,
	"checkout_id" text,
	"amount_paid" integer NOT NULL,
	"amount_reversed" integer DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"status" text NOT NULL,
	"credits_taken" numeric(20, 6) DEFAULT 0 NOT NULL,
	"credits_owed" numeric(20, 6) DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_reversals_key_unique" UNIQUE("key")
);
--> statement-breakpoint
ALTER TABLE "commissions" DROP CONSTRAINT "commissions_invoice_id_unique";--> statement-breakpoint
ALTER TABLE "commissions" ADD COLUMN "kind" text DEFAULT 'earned' NOT NULL;--> statement-breakpoint
ALTER TABLE "commissions" ADD COLUMN "adjust_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "commissions" ADD COLUMN "payout_id" text;--> statement-breakpoint
ALTER TABLE "affiliate_payouts" ADD CONSTRAINT "affiliate_payouts_affiliate_user_id_users_id_fk" FOREIGN KEY ("affiliate_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_debts" ADD CONSTRAINT "credit_debts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_reversals" ADD CONSTRAINT "payment_reversals_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "affiliate_payouts_affiliate_idx" ON "affiliate_payouts" USING btree ("affiliate_user_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_reversals_invoice_idx" ON "payment_reversals" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "payment_reversals_checkout_idx" ON "payment_reversals" USING btree ("checkout_id");--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_payout_id_affiliate_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."affiliate_payouts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "commissions_invoice_adjust_idx" ON "commissions" USING btree ("invoice_id","adjust_key");