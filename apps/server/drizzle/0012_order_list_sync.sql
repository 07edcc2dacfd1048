CREATE TABLE "order_wheelset_numbers" (
	"order_id" uuid NOT NULL,
	"number" text NOT NULL,
	CONSTRAINT "order_wheelset_numbers_order_id_number_pk" PRIMARY KEY("order_id","number")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "changed_tx" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL;--> statement-breakpoint
ALTER TABLE "tombstones" ADD COLUMN "changed_tx" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL;--> statement-breakpoint
ALTER TABLE "order_wheelset_numbers" ADD CONSTRAINT "order_wheelset_numbers_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_workshop_changed" ON "orders" USING btree ("workshop_id","changed_tx","id");--> statement-breakpoint
CREATE INDEX "orders_workshop_created" ON "orders" USING btree ("workshop_id","created","id");--> statement-breakpoint
CREATE INDEX "tombstones_workshop_changed" ON "tombstones" USING btree ("workshop_id","changed_tx");--> statement-breakpoint
-- Hand-written (docs/requirements/orders.md#order-list-at-scale): the transaction that last wrote an order, the
-- wheelset numbers the order search finds an order by, and the search's trigram indexes.
CREATE OR REPLACE FUNCTION vers_order_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_tx := pg_current_xact_id()::text::bigint;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_changed BEFORE UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION vers_order_changed();
--> statement-breakpoint
-- The number in a field's value (`{"value": "..."}`) as the search compares it (the domain's orderSearchNeedle):
-- lower case, without spaces and hyphens; empty when the value holds none.
CREATE OR REPLACE FUNCTION vers_searched_number(output_value text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  found text;
BEGIN
  BEGIN
    found := output_value::jsonb ->> 'value';
  EXCEPTION WHEN others THEN
    found := NULL; -- not JSON
  END;
  RETURN regexp_replace(lower(coalesce(found, '')), '[[:space:]-]', '', 'g');
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION vers_note_wheelset_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_wheelset_numbers (order_id, number)
    SELECT NEW.order_id, n FROM vers_searched_number(NEW.output_value) n WHERE n <> ''
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER activities_wheelset_numbers AFTER INSERT ON activities FOR EACH ROW
  WHEN (NEW.key LIKE '%.Wheelsetnumber') EXECUTE FUNCTION vers_note_wheelset_number();
--> statement-breakpoint
INSERT INTO order_wheelset_numbers (order_id, number)
  SELECT DISTINCT a.order_id, vers_searched_number(a.output_value) FROM activities a
  WHERE a.key LIKE '%.Wheelsetnumber' AND vers_searched_number(a.output_value) <> ''
  ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX orders_maintenance_number_trgm ON orders USING gin (maintenance_number gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX orders_number_trgm ON orders USING gin ((regexp_replace(lower(number), '[[:space:]-]', '', 'g')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX order_wheelset_numbers_trgm ON order_wheelset_numbers USING gin (number gin_trgm_ops);
