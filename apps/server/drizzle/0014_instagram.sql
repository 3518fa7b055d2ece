ALTER TABLE "channel_accounts" ADD COLUMN "status" text DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE "channel_accounts" ADD COLUMN "app_slug" text;--> statement-breakpoint
ALTER TABLE "channel_accounts" ADD COLUMN "status_code" text;--> statement-breakpoint
ALTER TABLE "channel_accounts" ADD COLUMN "status_message" text;--> statement-breakpoint
ALTER TABLE "channel_accounts" ADD COLUMN "external_account_id" text;--> statement-breakpoint
ALTER TABLE "channel_accounts" ADD COLUMN "external_account_name" text;--> statement-breakpoint
ALTER TABLE "channel_accounts" ADD COLUMN "page_id" text;--> statement-breakpoint
ALTER TABLE "channel_accounts" ADD COLUMN "verify_token_encrypted" text;--> statement-breakpoint
ALTER TABLE "channel_accounts" ADD COLUMN "webhook_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "channel_accounts" ADD COLUMN "oauth_state_hash" text;--> statement-breakpoint
ALTER TABLE "channel_accounts" ADD COLUMN "oauth_state_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "channel_accounts_external_account_idx" ON "channel_accounts" USING btree ("external_account_id");