CREATE TABLE "server_identity" (
	"singleton" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"id" uuid NOT NULL,
	"generation" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tombstones" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"workshop_id" integer NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "seen" integer;--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "device" uuid;--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "author_id" integer;--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "author" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tombstones" ADD CONSTRAINT "tombstones_workshop_id_workshops_id_fk" FOREIGN KEY ("workshop_id") REFERENCES "public"."workshops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tombstones_workshop_deleted" ON "tombstones" USING btree ("workshop_id","deleted_at");--> statement-breakpoint
-- The identity is made once, here: a restored backup brings back the row it had.
INSERT INTO "server_identity" ("singleton", "id", "generation") VALUES (true, gen_random_uuid(), 1);
