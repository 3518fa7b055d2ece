CREATE TABLE "campaign_recipients" (
	"id" text PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"phone" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"message_id" text,
	"error_code" text,
	"skip_reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_by" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"replied_at" timestamp with time zone,
	"opted_out_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" text PRIMARY KEY NOT NULL,
	"subaccount_id" text NOT NULL,
	"connection_id" text NOT NULL,
	"channel" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"audience" jsonb NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"whatsapp_template" jsonb,
	"media_url" text,
	"send_at" text,
	"scheduled_for" timestamp with time zone,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"quiet_start" text,
	"quiet_end" text,
	"dispatch_round" integer DEFAULT 0 NOT NULL,
	"recipients_cursor" text DEFAULT '',
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "channel_accounts" (
	"connection_id" text PRIMARY KEY NOT NULL,
	"subaccount_id" text NOT NULL,
	"transport" text NOT NULL,
	"account_sid" text,
	"credential_kind" text,
	"api_key_sid" text,
	"secret_encrypted" text,
	"secret_last4" text,
	"webhook_token_encrypted" text,
	"sender_phone" text,
	"messaging_service_sid" text,
	"send_rate_per_second" integer DEFAULT 0 NOT NULL,
	"verified_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"subaccount_id" text NOT NULL,
	"connection_id" text NOT NULL,
	"direction" text NOT NULL,
	"contact_phone" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"media_urls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"content_sid" text,
	"content_variables" jsonb,
	"status" text NOT NULL,
	"provider_sid" text,
	"error_code" text,
	"error_message" text,
	"campaign_id" text,
	"thread_id" text,
	"idempotency_key" text,
	"transport" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" text PRIMARY KEY NOT NULL,
	"subaccount_id" text NOT NULL,
	"phone" text NOT NULL,
	"name" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"opted_out" boolean DEFAULT false NOT NULL,
	"opted_out_at" timestamp with time zone,
	"time_zone" text,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messaging_profiles" (
	"subaccount_id" text PRIMARY KEY NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"default_country" text DEFAULT 'US' NOT NULL,
	"quiet_start" text,
	"quiet_end" text
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "max_attempts" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "run_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD CONSTRAINT "campaign_recipients_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_accounts" ADD CONSTRAINT "channel_accounts_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_messages" ADD CONSTRAINT "channel_messages_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_profiles" ADD CONSTRAINT "messaging_profiles_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_recipients_contact_idx" ON "campaign_recipients" USING btree ("campaign_id","contact_id");--> statement-breakpoint
CREATE INDEX "campaign_recipients_due_idx" ON "campaign_recipients" USING btree ("campaign_id","status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "campaign_recipients_phone_idx" ON "campaign_recipients" USING btree ("phone","sent_at");--> statement-breakpoint
CREATE INDEX "campaigns_connection_idx" ON "campaigns" USING btree ("connection_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_messages_provider_sid_idx" ON "channel_messages" USING btree ("connection_id","provider_sid");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_messages_idempotency_idx" ON "channel_messages" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "channel_messages_connection_idx" ON "channel_messages" USING btree ("connection_id","created_at");--> statement-breakpoint
CREATE INDEX "channel_messages_contact_idx" ON "channel_messages" USING btree ("connection_id","contact_phone","created_at");--> statement-breakpoint
CREATE INDEX "channel_messages_campaign_idx" ON "channel_messages" USING btree ("campaign_id","sent_at");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_subaccount_phone_idx" ON "contacts" USING btree ("subaccount_id","phone");--> statement-breakpoint
CREATE INDEX "contacts_tags_idx" ON "contacts" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "jobs_queued_run_at_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."status" = 'queued';--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_idempotency_key_idx" ON "jobs" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "jobs_finished_idx" ON "jobs" USING btree ("finished_at") WHERE "jobs"."finished_at" IS NOT NULL;