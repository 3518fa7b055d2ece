CREATE TABLE "agency_domains" (
	"account_id" text PRIMARY KEY NOT NULL,
	"hostname" text NOT NULL,
	"token" text NOT NULL,
	"method" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"last_checked_at" timestamp with time zone,
	"last_check_result" text,
	"check_started_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agency_domains" ADD CONSTRAINT "agency_domains_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agency_domains_hostname_idx" ON "agency_domains" USING btree ("hostname");--> statement-breakpoint
CREATE UNIQUE INDEX "agency_domains_verified_hostname_idx" ON "agency_domains" USING btree ("hostname") WHERE "agency_domains"."status" = 'verified';