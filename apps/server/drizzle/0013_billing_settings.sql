ALTER TABLE "billing_accounts" ADD COLUMN "low_balance_alert_period" text;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "auto_recharge_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "auto_recharge_threshold" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "auto_recharge_price_id" text;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "auto_recharge_last_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "auto_recharge_last_result" text;