CREATE TABLE "integration_connections" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"subaccount_id" text NOT NULL,
	"app_slug" text NOT NULL,
	"app_name" text NOT NULL,
	"status" text NOT NULL,
	"auth_kind" text NOT NULL,
	"external_id" text,
	"sandbox" boolean DEFAULT false NOT NULL,
	"oauth_state" text,
	"last_error" text,
	"discovered_tools" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_app_records" (
	"id" text PRIMARY KEY NOT NULL,
	"subaccount_id" text NOT NULL,
	"connection_id" text NOT NULL,
	"kind" text NOT NULL,
	"slot_key" text,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integration_connections" ADD CONSTRAINT "integration_connections_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_connections" ADD CONSTRAINT "integration_connections_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_app_records" ADD CONSTRAINT "sandbox_app_records_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_app_records" ADD CONSTRAINT "sandbox_app_records_connection_id_integration_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."integration_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integration_connections_subaccount_app_idx" ON "integration_connections" USING btree ("subaccount_id","app_slug");--> statement-breakpoint
CREATE UNIQUE INDEX "integration_connections_oauth_state_idx" ON "integration_connections" USING btree ("oauth_state");--> statement-breakpoint
CREATE INDEX "sandbox_app_records_subaccount_idx" ON "sandbox_app_records" USING btree ("subaccount_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_app_records_slot_idx" ON "sandbox_app_records" USING btree ("connection_id","slot_key");