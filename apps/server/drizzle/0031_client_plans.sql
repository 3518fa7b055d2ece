CREATE TABLE "client_balance_settings" (
	"subaccount_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"thresholds" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"alerted_month" text,
	"alerted_percent" integer,
	"top_up_enabled" boolean DEFAULT false NOT NULL,
	"top_up_credits" integer,
	"top_up_below_credits" integer,
	"top_up_last_at" timestamp with time zone,
	"top_up_last_result" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_billing_events" (
	"account_id" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_billing_events_account_id_event_id_pk" PRIMARY KEY("account_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "client_billing_settings" (
	"account_id" text PRIMARY KEY NOT NULL,
	"encrypted_secret_key" text NOT NULL,
	"key_last4" text NOT NULL,
	"key_mode" text NOT NULL,
	"key_kind" text NOT NULL,
	"encrypted_webhook_secret" text,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"subaccount_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_invoice_id" text NOT NULL,
	"kind" text NOT NULL,
	"plan_id" text,
	"amount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_open_checkouts" (
	"subaccount_id" text NOT NULL,
	"purpose" text NOT NULL,
	"request_key" text NOT NULL,
	"claim_token" text NOT NULL,
	"session_id" text,
	"url" text,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_open_checkouts_subaccount_id_purpose_pk" PRIMARY KEY("subaccount_id","purpose")
);
--> statement-breakpoint
CREATE TABLE "client_overage_charges" (
	"subaccount_id" text NOT NULL,
	"month" text NOT NULL,
	"credits" numeric(20, 6) NOT NULL,
	"amount_minor" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_overage_charges_subaccount_id_month_pk" PRIMARY KEY("subaccount_id","month")
);
--> statement-breakpoint
CREATE TABLE "client_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"price_minor" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"included_credits" integer NOT NULL,
	"extra_credit_price_minor" numeric(14, 4),
	"stripe_price_id" text,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_sandbox_checkouts" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"subaccount_id" text NOT NULL,
	"plan_id" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_subscriptions" (
	"subaccount_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider" text NOT NULL,
	"customer_id" text,
	"subscription_id" text,
	"plan_id" text,
	"status" text DEFAULT 'none' NOT NULL,
	"current_period_start" timestamp with time zone,
	"current_period_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"synced_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "client_balance_settings" ADD CONSTRAINT "client_balance_settings_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_balance_settings" ADD CONSTRAINT "client_balance_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_billing_events" ADD CONSTRAINT "client_billing_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_billing_settings" ADD CONSTRAINT "client_billing_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_invoices" ADD CONSTRAINT "client_invoices_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_invoices" ADD CONSTRAINT "client_invoices_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_open_checkouts" ADD CONSTRAINT "client_open_checkouts_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_overage_charges" ADD CONSTRAINT "client_overage_charges_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_plans" ADD CONSTRAINT "client_plans_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_sandbox_checkouts" ADD CONSTRAINT "client_sandbox_checkouts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_sandbox_checkouts" ADD CONSTRAINT "client_sandbox_checkouts_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_sandbox_checkouts" ADD CONSTRAINT "client_sandbox_checkouts_plan_id_client_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."client_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_subscriptions" ADD CONSTRAINT "client_subscriptions_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_subscriptions" ADD CONSTRAINT "client_subscriptions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_subscriptions" ADD CONSTRAINT "client_subscriptions_plan_id_client_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."client_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "client_invoices_provider_idx" ON "client_invoices" USING btree ("account_id","provider_invoice_id");--> statement-breakpoint
CREATE INDEX "client_invoices_subaccount_idx" ON "client_invoices" USING btree ("subaccount_id","created_at");--> statement-breakpoint
CREATE INDEX "client_invoices_account_paid_idx" ON "client_invoices" USING btree ("account_id","paid_at");--> statement-breakpoint
CREATE INDEX "client_plans_account_idx" ON "client_plans" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "client_subscriptions_account_idx" ON "client_subscriptions" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "client_subscriptions_subscription_idx" ON "client_subscriptions" USING btree ("subscription_id");