CREATE TABLE "mcp_servers" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"subaccount_id" text NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"headers_encrypted" text NOT NULL,
	"status" text NOT NULL,
	"last_error" text,
	"discovered_tools" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"discovered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD CONSTRAINT "mcp_servers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD CONSTRAINT "mcp_servers_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mcp_servers_subaccount_idx" ON "mcp_servers" USING btree ("subaccount_id","created_at");