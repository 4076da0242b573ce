CREATE INDEX "customers_partner_status_idx" ON "customers" USING btree ("partner_id","verification_status","id");--> statement-breakpoint
CREATE INDEX "customers_partner_type_idx" ON "customers" USING btree ("partner_id","type","id");--> statement-breakpoint
CREATE INDEX "events_partner_type_idx" ON "events" USING btree ("partner_id","event_type","id");--> statement-breakpoint
CREATE INDEX "transactions_partner_status_idx" ON "transactions" USING btree ("partner_id","status","id");--> statement-breakpoint
CREATE INDEX "transactions_partner_type_idx" ON "transactions" USING btree ("partner_id","type","id");