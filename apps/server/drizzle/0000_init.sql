CREATE TABLE "default_option_values" (
	"id" serial PRIMARY KEY NOT NULL,
	"option_id" integer NOT NULL,
	"value" text NOT NULL,
	"text" text NOT NULL,
	"global" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "default_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"lang" text NOT NULL,
	"name" text NOT NULL,
	"text" text NOT NULL,
	"superstructure_type" text,
	"last_modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"workshop_id" integer NOT NULL,
	"address" text NOT NULL,
	"language_code" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feature_toggles" (
	"name" text PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"address" text NOT NULL,
	"succeeded" boolean NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"workshop_id" integer,
	"username" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"password_hash" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"last_modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workshops" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"country_code" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"fax" text DEFAULT '' NOT NULL,
	"rev_nr" text DEFAULT '' NOT NULL,
	"site_id" text DEFAULT '' NOT NULL,
	"icon" text,
	"add_last_modifier" boolean DEFAULT false NOT NULL,
	"last_modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "default_option_values" ADD CONSTRAINT "default_option_values_option_id_default_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."default_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_addresses" ADD CONSTRAINT "email_addresses_workshop_id_workshops_id_fk" FOREIGN KEY ("workshop_id") REFERENCES "public"."workshops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_workshop_id_workshops_id_fk" FOREIGN KEY ("workshop_id") REFERENCES "public"."workshops"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "default_option_values_option" ON "default_option_values" USING btree ("option_id");--> statement-breakpoint
CREATE UNIQUE INDEX "default_options_key_lang" ON "default_options" USING btree ("key","lang");--> statement-breakpoint
CREATE UNIQUE INDEX "email_addresses_workshop_address" ON "email_addresses" USING btree ("workshop_id",lower("address"));--> statement-breakpoint
CREATE INDEX "login_attempts_user_address" ON "login_attempts" USING btree ("username","address","attempted_at");--> statement-breakpoint
CREATE INDEX "login_attempts_address" ON "login_attempts" USING btree ("address","attempted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower" ON "users" USING btree (lower("username"));