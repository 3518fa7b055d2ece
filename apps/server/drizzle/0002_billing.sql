CREATE TABLE "billing_accounts" (
	"account_id" text PRIMARY KEY NOT NULL,
	"customer_id" text,
	"subscription_id" text,
	"status" text DEFAULT 'none' NOT NULL,
	"price_id" text,
	"plan_code" text DEFAULT 'free' NOT NULL,
	"tier_code" text DEFAULT 'free' NOT NULL,
	"credit_limit" numeric(20, 6) DEFAULT 0 NOT NULL,
	"amount_cents" integer DEFAULT 0 NOT NULL,
	"current_period_start" timestamp with time zone,
	"current_period_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"scheduled_price_id" text,
	"scheduled_change_date" timestamp with time zone,
	"synced_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"account_id" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_allocations" (
	"entry_id" text NOT NULL,
	"grant_id" text NOT NULL,
	"amount" numeric(20, 6) NOT NULL,
	CONSTRAINT "credit_allocations_entry_id_grant_id_pk" PRIMARY KEY("entry_id","grant_id")
);
--> statement-breakpoint
CREATE TABLE "credit_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric(20, 6) NOT NULL,
	"grant_id" text,
	"idempotency_key" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_grants" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric(20, 6) NOT NULL,
	"remaining" numeric(20, 6) NOT NULL,
	"source_key" text NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_grants_remaining_not_negative" CHECK ("credit_grants"."remaining" >= 0),
	CONSTRAINT "credit_grants_remaining_within_amount" CHECK ("credit_grants"."remaining" <= "credit_grants"."amount")
);
--> statement-breakpoint
CREATE TABLE "billing_sandbox_objects" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"account_id" text,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_logs" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"subaccount_id" text,
	"model" text DEFAULT 'unknown' NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"credits" numeric(20, 6) DEFAULT 0 NOT NULL,
	"charged" numeric(20, 6) DEFAULT 0 NOT NULL,
	"source" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD CONSTRAINT "billing_accounts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_allocations" ADD CONSTRAINT "credit_allocations_entry_id_credit_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."credit_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_allocations" ADD CONSTRAINT "credit_allocations_grant_id_credit_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."credit_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_grant_id_credit_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."credit_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_grants" ADD CONSTRAINT "credit_grants_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_logs" ADD CONSTRAINT "usage_logs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_logs" ADD CONSTRAINT "usage_logs_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_entries_account_key_idx" ON "credit_entries" USING btree ("account_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "credit_entries_account_created_idx" ON "credit_entries" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_grants_account_source_idx" ON "credit_grants" USING btree ("account_id","source_key");--> statement-breakpoint
CREATE INDEX "billing_sandbox_objects_kind_account_idx" ON "billing_sandbox_objects" USING btree ("kind","account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "usage_logs_account_key_idx" ON "usage_logs" USING btree ("account_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "usage_logs_account_created_idx" ON "usage_logs" USING btree ("account_id","created_at");