CREATE TABLE "campaign_sequences" (
	"campaign_id" text PRIMARY KEY NOT NULL,
	"stop_on_reply" boolean DEFAULT true NOT NULL,
	"stop_on_goal" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_step_sends" (
	"id" text PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"recipient_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"phone" text NOT NULL,
	"step" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"skip_reason" text,
	"error_code" text,
	"message_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_by" text,
	"claimed_at" timestamp with time zone,
	"send_key" text,
	"due_at" timestamp with time zone NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"replied_at" timestamp with time zone,
	"opted_out_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_steps" (
	"campaign_id" text NOT NULL,
	"step" integer NOT NULL,
	"delay_minutes" integer NOT NULL,
	"condition" text DEFAULT 'all' NOT NULL,
	"message" text NOT NULL,
	CONSTRAINT "campaign_steps_campaign_id_step_pk" PRIMARY KEY("campaign_id","step")
);
--> statement-breakpoint
ALTER TABLE "campaign_sequences" ADD CONSTRAINT "campaign_sequences_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_step_sends" ADD CONSTRAINT "campaign_step_sends_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_step_sends" ADD CONSTRAINT "campaign_step_sends_recipient_id_campaign_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."campaign_recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_steps" ADD CONSTRAINT "campaign_steps_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_step_sends_recipient_idx" ON "campaign_step_sends" USING btree ("recipient_id","step");--> statement-breakpoint
CREATE INDEX "campaign_step_sends_due_idx" ON "campaign_step_sends" USING btree ("campaign_id","status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "campaign_step_sends_phone_idx" ON "campaign_step_sends" USING btree ("phone","sent_at");