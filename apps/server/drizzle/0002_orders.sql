CREATE TABLE "activities" (
	"id" uuid PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"counter" integer NOT NULL,
	"key" text NOT NULL,
	"type" text NOT NULL,
	"output_value" text NOT NULL,
	"created" timestamp with time zone NOT NULL,
	"last_modified" timestamp with time zone DEFAULT now() NOT NULL,
	"modifier" text DEFAULT '' NOT NULL,
	"reverted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_numbers" (
	"workshop_id" integer NOT NULL,
	"year" integer NOT NULL,
	"last" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workshop_id" integer NOT NULL,
	"type" text NOT NULL,
	"number" text NOT NULL,
	"external_order_number" text DEFAULT '' NOT NULL,
	"maintenance_number" text NOT NULL,
	"contractor" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'CREATED' NOT NULL,
	"asset_id" text,
	"imported_date" timestamp with time zone,
	"created_by" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"last_counter" integer DEFAULT 0 NOT NULL,
	"last_modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_numbers" ADD CONSTRAINT "order_numbers_workshop_id_workshops_id_fk" FOREIGN KEY ("workshop_id") REFERENCES "public"."workshops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_workshop_id_workshops_id_fk" FOREIGN KEY ("workshop_id") REFERENCES "public"."workshops"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activities_order_counter" ON "activities" USING btree ("order_id","counter");--> statement-breakpoint
CREATE UNIQUE INDEX "order_numbers_workshop_year" ON "order_numbers" USING btree ("workshop_id","year");--> statement-breakpoint
CREATE INDEX "orders_workshop" ON "orders" USING btree ("workshop_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_workshop_number" ON "orders" USING btree ("workshop_id","number");