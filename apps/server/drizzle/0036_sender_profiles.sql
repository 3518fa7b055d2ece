CREATE TABLE "sender_profiles" (
	"channel_ref" text NOT NULL,
	"contact_identifier" text NOT NULL,
	"subaccount_id" text NOT NULL,
	"username" text,
	"name" text,
	"read_at" timestamp with time zone,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sender_profiles_channel_ref_contact_identifier_pk" PRIMARY KEY("channel_ref","contact_identifier")
);
--> statement-breakpoint
ALTER TABLE "channel_accounts" ADD COLUMN "oauth_pages_encrypted" text;--> statement-breakpoint
ALTER TABLE "sender_profiles" ADD CONSTRAINT "sender_profiles_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;