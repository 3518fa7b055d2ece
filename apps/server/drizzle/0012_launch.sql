CREATE TABLE "connection_pauses" (
	"connection_id" text PRIMARY KEY NOT NULL,
	"subaccount_id" text NOT NULL,
	"paused_by" text,
	"paused_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connection_pauses" ADD CONSTRAINT "connection_pauses_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_pauses" ADD CONSTRAINT "connection_pauses_paused_by_users_id_fk" FOREIGN KEY ("paused_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connection_pauses_subaccount_idx" ON "connection_pauses" USING btree ("subaccount_id");--> statement-breakpoint
CREATE INDEX "messages_subaccount_created_idx" ON "messages" USING btree ("subaccount_id","created_at");