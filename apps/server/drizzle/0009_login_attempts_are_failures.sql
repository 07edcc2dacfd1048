-- Every row is a failure from now on (successes were never kept; this makes sure).
DELETE FROM "login_attempts" WHERE "succeeded";--> statement-breakpoint
ALTER TABLE "login_attempts" DROP COLUMN "succeeded";