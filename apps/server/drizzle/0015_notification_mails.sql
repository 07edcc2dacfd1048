CREATE TABLE "notification_mails" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workshop_id" integer NOT NULL,
	"event_key" text NOT NULL,
	"kind" text NOT NULL,
	"order_id" uuid,
	"address" text NOT NULL,
	"language" text NOT NULL,
	"status" text DEFAULT 'WAITING' NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"message_id" text NOT NULL,
	"file" text,
	"origin" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "notification_mails" ADD CONSTRAINT "notification_mails_workshop_id_workshops_id_fk" FOREIGN KEY ("workshop_id") REFERENCES "public"."workshops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_mails_event_address" ON "notification_mails" USING btree ("event_key",lower("address"));--> statement-breakpoint
CREATE INDEX "notification_mails_workshop" ON "notification_mails" USING btree ("workshop_id","created");