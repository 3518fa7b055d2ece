CREATE TABLE "canned_replies" (
	"id" text PRIMARY KEY NOT NULL,
	"subaccount_id" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_profiles" (
	"subaccount_id" text NOT NULL,
	"contact_identifier" text NOT NULL,
	"name" text,
	"notes" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_profiles_subaccount_id_contact_identifier_pk" PRIMARY KEY("subaccount_id","contact_identifier")
);
--> statement-breakpoint
CREATE TABLE "inbox_labels" (
	"id" text PRIMARY KEY NOT NULL,
	"subaccount_id" text NOT NULL,
	"name" text NOT NULL,
	"color" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "thread_labels" (
	"thread_id" text NOT NULL,
	"label_id" text NOT NULL,
	"subaccount_id" text NOT NULL,
	CONSTRAINT "thread_labels_thread_id_label_id_pk" PRIMARY KEY("thread_id","label_id")
);
--> statement-breakpoint
ALTER TABLE "channel_accounts" ADD COLUMN "segment_price_micros" integer;--> statement-breakpoint
ALTER TABLE "channel_accounts" ADD COLUMN "segment_price_currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "assigned_user_id" text;--> statement-breakpoint
ALTER TABLE "canned_replies" ADD CONSTRAINT "canned_replies_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_profiles" ADD CONSTRAINT "contact_profiles_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_labels" ADD CONSTRAINT "inbox_labels_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thread_labels" ADD CONSTRAINT "thread_labels_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thread_labels" ADD CONSTRAINT "thread_labels_label_id_inbox_labels_id_fk" FOREIGN KEY ("label_id") REFERENCES "public"."inbox_labels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "canned_replies_title_idx" ON "canned_replies" USING btree ("subaccount_id",lower("title"));--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_labels_name_idx" ON "inbox_labels" USING btree ("subaccount_id",lower("name"));--> statement-breakpoint
CREATE INDEX "thread_labels_label_idx" ON "thread_labels" USING btree ("label_id");--> statement-breakpoint
CREATE INDEX "threads_contact_idx" ON "threads" USING btree ("subaccount_id","contact_identifier");