CREATE TABLE "channel_sandbox_log" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"connection_id" text NOT NULL,
	"contact_phone" text NOT NULL,
	"provider_sid" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "send_key" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "hold_reason" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "hold_code" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "hold_message" text;--> statement-breakpoint
CREATE INDEX "channel_sandbox_log_created_idx" ON "channel_sandbox_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "campaigns_active_idx" ON "campaigns" USING btree ("status") WHERE "campaigns"."status" IN ('sending', 'paused');--> statement-breakpoint
-- Sends marked failed UNCONFIRMED before reconciliation existed are sends in doubt: "Retry unsent"
-- reconciles them with the provider from the time their message was written.
UPDATE "campaign_recipients" AS r SET "status" = 'unconfirmed', "claimed_at" = coalesce(m."created_at", r."updated_at")
FROM "campaign_recipients" AS c LEFT JOIN "channel_messages" AS m ON m."id" = c."message_id"
WHERE r."id" = c."id" AND r."status" = 'failed' AND r."error_code" = 'UNCONFIRMED';
