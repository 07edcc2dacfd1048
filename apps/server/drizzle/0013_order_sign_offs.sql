CREATE TABLE "order_sign_offs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"workshop_id" integer NOT NULL,
	"code" text NOT NULL,
	"signer_id" integer NOT NULL,
	"signer" text NOT NULL,
	"role" text NOT NULL,
	"meaning" text NOT NULL,
	"status" text,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"content_hash" text NOT NULL,
	"content" jsonb NOT NULL,
	"superseded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "order_sign_offs_code" ON "order_sign_offs" USING btree ("code");--> statement-breakpoint
CREATE INDEX "order_sign_offs_order" ON "order_sign_offs" USING btree ("order_id","signed_at");--> statement-breakpoint
-- Append-only: a sign-off is never deleted, and the only change it takes is being marked superseded, once.
CREATE OR REPLACE FUNCTION vers_sign_offs_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'order_sign_offs is append-only: a sign-off is never deleted';
  END IF;
  IF OLD.superseded_at IS NOT NULL OR NEW.superseded_at IS NULL
     OR (to_jsonb(NEW) - 'superseded_at') <> (to_jsonb(OLD) - 'superseded_at') THEN
    RAISE EXCEPTION 'order_sign_offs is append-only: only superseded_at may be set, once';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_sign_offs_append_only BEFORE UPDATE OR DELETE ON order_sign_offs FOR EACH ROW
  EXECUTE FUNCTION vers_sign_offs_append_only();
