CREATE TABLE "demos" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"subaccount_id" text NOT NULL,
	"build_id" text,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"logo_url" text DEFAULT '' NOT NULL,
	"avatar_url" text DEFAULT '' NOT NULL,
	"logo_width" integer DEFAULT 100 NOT NULL,
	"request_count" integer DEFAULT 0 NOT NULL,
	"request_limit" integer DEFAULT 100 NOT NULL,
	"settings" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "demos" ADD CONSTRAINT "demos_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demos" ADD CONSTRAINT "demos_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demos" ADD CONSTRAINT "demos_build_id_agents_id_fk" FOREIGN KEY ("build_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demos" ADD CONSTRAINT "demos_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "demos_subaccount_idx" ON "demos" USING btree ("subaccount_id","created_at");