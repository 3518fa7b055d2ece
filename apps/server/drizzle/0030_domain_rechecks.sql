ALTER TABLE "agency_domains" ADD COLUMN "verified_by" text;--> statement-breakpoint
ALTER TABLE "agency_domains" ADD COLUMN "failed_rechecks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "agency_domains" SET "verified_by" = CASE WHEN "last_check_result" LIKE '%confirmed by an operator%' THEN 'operator' ELSE 'check' END WHERE "status" = 'verified';
