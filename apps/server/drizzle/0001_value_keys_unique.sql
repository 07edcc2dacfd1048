DROP INDEX "default_option_values_option";--> statement-breakpoint
CREATE UNIQUE INDEX "default_option_values_option_value" ON "default_option_values" USING btree ("option_id","value");