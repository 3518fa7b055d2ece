CREATE TABLE "recurring_tasks" (
	"name" text PRIMARY KEY NOT NULL,
	"period" bigint NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "queue" text DEFAULT 'maintenance' NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "priority" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "owner" text;--> statement-breakpoint
CREATE INDEX "jobs_queued_queue_idx" ON "jobs" USING btree ("queue","priority" DESC NULLS LAST,"run_at") WHERE "jobs"."status" = 'queued';--> statement-breakpoint
UPDATE "jobs" SET "queue" = CASE "type"
  WHEN 'channel:inbound' THEN 'messages'
  WHEN 'channel:send' THEN 'messages'
  WHEN 'agent:build' THEN 'interactive'
  WHEN 'evaluation.questions' THEN 'interactive'
  WHEN 'campaign:dispatch' THEN 'campaigns'
  WHEN 'evaluation.run' THEN 'evaluation'
  WHEN 'webhooks.deliver' THEN 'webhooks'
  WHEN 'knowledge:embed' THEN 'knowledge'
  ELSE 'maintenance' END;
