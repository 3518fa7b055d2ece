ALTER TABLE "accounts" ADD COLUMN "slug" text;--> statement-breakpoint
WITH "base" AS (
	SELECT "id", "created_at", coalesce(nullif(trim(both '-' from left(regexp_replace(lower("name"), '[^a-z0-9]+', '-', 'g'), 26)), ''), 'agency') AS "b"
	FROM "accounts"
), "fixed" AS (
	SELECT "id", "created_at", CASE WHEN length("b") < 3 OR "b" IN ('admin','api','app','auth','billing','dashboard','docs','help','login','new','operator','portal','pricing','settings','signin','signup','static','support','switchboard','www') THEN "b" || '-agency' ELSE "b" END AS "b"
	FROM "base"
), "numbered" AS (
	SELECT "id", "b", row_number() OVER (PARTITION BY "b" ORDER BY "created_at", "id") AS "rn"
	FROM "fixed"
)
UPDATE "accounts" SET "slug" = CASE WHEN "numbered"."rn" = 1 THEN "numbered"."b" ELSE "numbered"."b" || '-' || substr(md5("accounts"."id"), 1, 6) END
FROM "numbered" WHERE "numbered"."id" = "accounts"."id";--> statement-breakpoint
ALTER TABLE "accounts" ALTER COLUMN "slug" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "brand_name" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "brand_logo_url" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "brand_color" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "email_sender_name" text;--> statement-breakpoint
ALTER TABLE "subaccounts" ADD COLUMN "client_access" jsonb DEFAULT '{"editAgents":false,"inbox":true,"campaigns":false}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_slug_unique" UNIQUE("slug");--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "from_name" text;
