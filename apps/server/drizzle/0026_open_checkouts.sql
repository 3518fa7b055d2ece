-- One open checkout per account and purpose (plan or pack): concurrent checkout requests share the
-- session of the request that claimed the row.
CREATE TABLE "billing_open_checkouts" (
	"account_id" text NOT NULL,
	"purpose" text NOT NULL,
	"request_key" text NOT NULL,
	"claim_token" text NOT NULL,
	"session_id" text,
	"url" text,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_open_checkouts_account_id_purpose_pk" PRIMARY KEY("account_id","purpose")
);
--> statement-breakpoint
ALTER TABLE "billing_open_checkouts" ADD CONSTRAINT "billing_open_checkouts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;