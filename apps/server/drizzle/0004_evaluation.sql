CREATE TABLE "evaluation_conversations" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"question_key" text NOT NULL,
	"category" text NOT NULL,
	"position" integer NOT NULL,
	"variation" integer NOT NULL,
	"question" text NOT NULL,
	"original_question" text NOT NULL,
	"success_criteria" text NOT NULL,
	"when_to_ask" integer NOT NULL,
	"transcript" jsonb NOT NULL,
	"answer" text NOT NULL,
	"passed" boolean NOT NULL,
	"score" real NOT NULL,
	"reasoning" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evaluation_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"evaluation_id" text NOT NULL,
	"account_id" text NOT NULL,
	"subaccount_id" text NOT NULL,
	"created_by" text,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"agent_id" text,
	"target_label" text NOT NULL,
	"template_id" text,
	"testing_model" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"total" integer NOT NULL,
	"error" text,
	"job_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "evaluation_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"subaccount_id" text NOT NULL,
	"name" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evaluation_question_generations" (
	"id" text PRIMARY KEY NOT NULL,
	"subaccount_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"request" jsonb NOT NULL,
	"results" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connections" (
	"id" text PRIMARY KEY NOT NULL,
	"subaccount_id" text NOT NULL,
	"account_id" text NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"widget_id" text NOT NULL,
	"build_id" text,
	"settings" jsonb NOT NULL,
	"deployed_settings" jsonb,
	"deployed_build_id" text,
	"settings_version" integer DEFAULT 1 NOT NULL,
	"deployed_version" integer DEFAULT 0 NOT NULL,
	"deployed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "widget_counters" (
	"key" text NOT NULL,
	"window" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "widget_counters_key_window_pk" PRIMARY KEY("key","window")
);
--> statement-breakpoint
ALTER TABLE "evaluation_conversations" ADD CONSTRAINT "evaluation_conversations_run_id_evaluation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."evaluation_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_runs" ADD CONSTRAINT "evaluation_runs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_runs" ADD CONSTRAINT "evaluation_runs_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_runs" ADD CONSTRAINT "evaluation_runs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_templates" ADD CONSTRAINT "evaluation_templates_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_templates" ADD CONSTRAINT "evaluation_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_question_generations" ADD CONSTRAINT "evaluation_question_generations_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connections" ADD CONSTRAINT "connections_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "evaluation_conversations_unique_idx" ON "evaluation_conversations" USING btree ("run_id","question_key","variation");--> statement-breakpoint
CREATE UNIQUE INDEX "evaluation_runs_subaccount_evaluation_idx" ON "evaluation_runs" USING btree ("subaccount_id","evaluation_id");--> statement-breakpoint
CREATE INDEX "evaluation_runs_subaccount_created_idx" ON "evaluation_runs" USING btree ("subaccount_id","created_at");--> statement-breakpoint
CREATE INDEX "evaluation_runs_agent_idx" ON "evaluation_runs" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "evaluation_templates_subaccount_idx" ON "evaluation_templates" USING btree ("subaccount_id","created_at");--> statement-breakpoint
CREATE INDEX "evaluation_question_generations_subaccount_idx" ON "evaluation_question_generations" USING btree ("subaccount_id");--> statement-breakpoint
CREATE UNIQUE INDEX "connections_widget_idx" ON "connections" USING btree ("widget_id");--> statement-breakpoint
CREATE INDEX "connections_subaccount_idx" ON "connections" USING btree ("subaccount_id","type");--> statement-breakpoint
CREATE INDEX "widget_counters_expires_idx" ON "widget_counters" USING btree ("expires_at");