CREATE TABLE "credit_holds" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"subaccount_id" text,
	"amount" numeric(20, 6) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subaccount_allowances" (
	"subaccount_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"monthly_credits" numeric(20, 6) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subaccount_monthly_usage" (
	"subaccount_id" text NOT NULL,
	"month" text NOT NULL,
	"credits" numeric(20, 6) DEFAULT 0 NOT NULL,
	CONSTRAINT "subaccount_monthly_usage_subaccount_id_month_pk" PRIMARY KEY("subaccount_id","month")
);
--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "subaccount_choice_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "low_balance_thresholds" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "low_balance_alerted_at" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "usage_logs" ADD COLUMN "agent_id" text;--> statement-breakpoint
ALTER TABLE "usage_logs" ADD COLUMN "channel" text;--> statement-breakpoint
ALTER TABLE "usage_logs" ADD COLUMN "billing_basis" text DEFAULT 'platform' NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_holds" ADD CONSTRAINT "credit_holds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subaccount_allowances" ADD CONSTRAINT "subaccount_allowances_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subaccount_allowances" ADD CONSTRAINT "subaccount_allowances_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subaccount_monthly_usage" ADD CONSTRAINT "subaccount_monthly_usage_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_holds_account_idx" ON "credit_holds" USING btree ("account_id","expires_at");--> statement-breakpoint
CREATE INDEX "credit_holds_subaccount_idx" ON "credit_holds" USING btree ("subaccount_id");