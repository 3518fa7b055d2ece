CREATE TABLE "channel_suppressions" (
	"subaccount_id" text NOT NULL,
	"sender" text NOT NULL,
	"phone" text NOT NULL,
	"connection_id" text,
	"source" text NOT NULL,
	"keyword" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_suppressions_subaccount_id_sender_phone_pk" PRIMARY KEY("subaccount_id","sender","phone")
);
--> statement-breakpoint
ALTER TABLE "channel_suppressions" ADD CONSTRAINT "channel_suppressions_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channel_suppressions_phone_idx" ON "channel_suppressions" USING btree ("subaccount_id","phone");--> statement-breakpoint
-- Opt-outs recorded on contacts before this list move into it for every sender of the sub-account
-- (that was their reach), before the contact columns go.
INSERT INTO "channel_suppressions" ("subaccount_id", "sender", "phone", "source", "created_at")
SELECT "subaccount_id", '*', "phone", 'migrated', coalesce("opted_out_at", now()) FROM "contacts" WHERE "opted_out"
ON CONFLICT DO NOTHING;--> statement-breakpoint
ALTER TABLE "contacts" DROP COLUMN "opted_out";--> statement-breakpoint
ALTER TABLE "contacts" DROP COLUMN "opted_out_at";