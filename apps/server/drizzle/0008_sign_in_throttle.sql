CREATE TABLE "trusted_devices" (
	"username" text NOT NULL,
	"device_hash" text NOT NULL,
	"last_used" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trusted_devices_username_device_hash_pk" PRIMARY KEY("username","device_hash")
);
--> statement-breakpoint
ALTER TABLE "login_attempts" ADD COLUMN "device" text;--> statement-breakpoint
CREATE INDEX "login_attempts_user_device" ON "login_attempts" USING btree ("username","device","attempted_at");