CREATE TABLE "keeper_markings" (
	"vkm" text PRIMARY KEY NOT NULL,
	"keeper_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "keeper_vkm_backfill" (
	"order_id" uuid PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "keepers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"last_modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "keeper_vkm" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "keeper_marking" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "keeper_id" integer;--> statement-breakpoint
ALTER TABLE "keeper_markings" ADD CONSTRAINT "keeper_markings_keeper_id_keepers_id_fk" FOREIGN KEY ("keeper_id") REFERENCES "public"."keepers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keeper_vkm_backfill" ADD CONSTRAINT "keeper_vkm_backfill_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "keeper_markings_keeper" ON "keeper_markings" USING btree ("keeper_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_keeper_id_keepers_id_fk" FOREIGN KEY ("keeper_id") REFERENCES "public"."keepers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_keeper_created" ON "orders" USING btree ("keeper_vkm","created","id");--> statement-breakpoint
-- Hand-written: the orders whose keeper VKM is to be derived at start-up (orders/keeper-vkm.ts), the rule being the
-- domain's (keeperMarkingVkm) and not repeated here. An order never given a keeper marking keeps null.
INSERT INTO keeper_vkm_backfill (order_id)
  SELECT o.id FROM orders o
  WHERE o.type = 'WAGON'
    AND EXISTS (SELECT 1 FROM activities a WHERE a.order_id = o.id AND a.key LIKE '%.Halterkurzkennzeichen');
--> statement-breakpoint
-- A holder belongs to a keeper and to no workshop (issue 22): holders made before keepers existed leave their workshop,
-- so that a system admin can link them to their keeper (until then they see no order).
UPDATE users SET workshop_id = NULL WHERE 'ROLE_HOLDER' = ANY(roles);
