ALTER TABLE "channel_messages" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "channel_suppressions" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "channel_suppressions" ADD COLUMN "error_message" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "source" text;--> statement-breakpoint
UPDATE "channel_messages" SET "source" = CASE
  WHEN "campaign_id" IS NOT NULL THEN 'campaign'
  WHEN "idempotency_key" LIKE 'keyword:%' THEN 'keyword'
  WHEN "idempotency_key" LIKE 'human:%' THEN 'person'
  ELSE 'agent' END
WHERE "direction" = 'outbound';
