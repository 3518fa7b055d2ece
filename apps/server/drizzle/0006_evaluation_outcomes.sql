ALTER TABLE "evaluation_conversations" ADD COLUMN "outcome" text DEFAULT 'failed' NOT NULL;--> statement-breakpoint
ALTER TABLE "evaluation_conversations" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "evaluation_conversations" ADD COLUMN "error_reason" text;--> statement-breakpoint
ALTER TABLE "evaluation_conversations" ADD COLUMN "checks" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "evaluation_runs" ADD COLUMN "offline" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "evaluation_runs" ADD COLUMN "error_reason" text;--> statement-breakpoint
ALTER TABLE "evaluation_runs" ADD COLUMN "share_token" text;--> statement-breakpoint
CREATE UNIQUE INDEX "evaluation_runs_share_token_idx" ON "evaluation_runs" USING btree ("share_token");--> statement-breakpoint
UPDATE "evaluation_conversations" SET "outcome" = CASE WHEN "passed" THEN 'passed' WHEN "error" IS NOT NULL THEN 'error' ELSE 'failed' END;