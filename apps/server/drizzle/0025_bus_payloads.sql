-- Events of the PostgreSQL event bus too large for a NOTIFY payload, kept for a few minutes:
-- unlogged, since a row is of no use after a crash.
CREATE UNLOGGED TABLE "bus_payloads" (
	"id" text PRIMARY KEY NOT NULL,
	"payload" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "bus_payloads_created_idx" ON "bus_payloads" USING btree ("created_at");
