CREATE TABLE "order_search_numbers" (
	"order_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"number" text NOT NULL,
	CONSTRAINT "order_search_numbers_order_id_kind_number_pk" PRIMARY KEY("order_id","kind","number")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "changed_tx" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL;--> statement-breakpoint
ALTER TABLE "tombstones" ADD COLUMN "changed_tx" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL;--> statement-breakpoint
ALTER TABLE "order_search_numbers" ADD CONSTRAINT "order_search_numbers_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_workshop_changed" ON "orders" USING btree ("workshop_id","changed_tx","id");--> statement-breakpoint
CREATE INDEX "orders_workshop_created" ON "orders" USING btree ("workshop_id","created","id");--> statement-breakpoint
CREATE INDEX "tombstones_workshop_changed" ON "tombstones" USING btree ("workshop_id","changed_tx");--> statement-breakpoint
-- Hand-written (docs/requirements/orders.md#order-list-at-scale): the transaction that last changed what the list
-- shows of an order, the numbers the order search finds an order by, and the search's trigram index.
CREATE OR REPLACE FUNCTION vers_order_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_tx := pg_current_xact_id()::text::bigint;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- Only a change of what the list shows moves an order up: an edit's counter and time (every push) do not, so that a
-- push stays the small update it was (issue 19's push throughput).
CREATE TRIGGER orders_changed BEFORE UPDATE ON orders FOR EACH ROW
  WHEN ((OLD.status, OLD.contractor, OLD.number, OLD.external_order_number, OLD.maintenance_number, OLD.type,
    OLD.imported_date, OLD.asset_id, OLD.workshop_id) IS DISTINCT FROM (NEW.status, NEW.contractor, NEW.number,
    NEW.external_order_number, NEW.maintenance_number, NEW.type, NEW.imported_date, NEW.asset_id, NEW.workshop_id))
  EXECUTE FUNCTION vers_order_changed();
--> statement-breakpoint
-- A number as the search compares it (the domain's orderSearchNeedle): lower case, without spaces and hyphens.
CREATE OR REPLACE FUNCTION vers_searched(raw text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT regexp_replace(lower(coalesce(raw, '')), '[[:space:]-]', '', 'g')
$$;
--> statement-breakpoint
-- The number in a field's value (`{"value": "..."}`); empty when the value holds none.
CREATE OR REPLACE FUNCTION vers_searched_value(output_value text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  found text;
BEGIN
  BEGIN
    found := output_value::jsonb ->> 'value';
  EXCEPTION WHEN others THEN
    found := NULL; -- not JSON
  END;
  RETURN vers_searched(found);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION vers_note_order_numbers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_search_numbers WHERE order_id = NEW.id AND kind = 'ORDER';
  INSERT INTO order_search_numbers (order_id, kind, number)
    SELECT NEW.id, 'ORDER', n FROM unnest(ARRAY[vers_searched(NEW.maintenance_number), vers_searched(NEW.number)]) n
    WHERE n <> '' ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_search_numbers AFTER INSERT OR UPDATE OF maintenance_number, number ON orders FOR EACH ROW
  EXECUTE FUNCTION vers_note_order_numbers();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION vers_note_wheelset_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_search_numbers (order_id, kind, number)
    SELECT NEW.order_id, 'WHEELSET', n FROM vers_searched_value(NEW.output_value) n WHERE n <> ''
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER activities_wheelset_numbers AFTER INSERT ON activities FOR EACH ROW
  WHEN (NEW.key LIKE '%.Wheelsetnumber') EXECUTE FUNCTION vers_note_wheelset_number();
--> statement-breakpoint
INSERT INTO order_search_numbers (order_id, kind, number)
  SELECT o.id, 'ORDER', n FROM orders o,
    unnest(ARRAY[vers_searched(o.maintenance_number), vers_searched(o.number)]) n WHERE n <> ''
  UNION
  SELECT a.order_id, 'WHEELSET', vers_searched_value(a.output_value) FROM activities a
    WHERE a.key LIKE '%.Wheelsetnumber' AND vers_searched_value(a.output_value) <> ''
  ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX order_search_numbers_trgm ON order_search_numbers USING gin (number gin_trgm_ops);
