DROP INDEX "jobs_due_idx";--> statement-breakpoint
CREATE INDEX "jobs_claim_idx" ON "jobs" USING btree ("run_at") WHERE done_at IS NULL AND parked_at IS NULL;--> statement-breakpoint
CREATE INDEX "jobs_partner_claim_idx" ON "jobs" USING btree ("partner_id","run_at") WHERE done_at IS NULL AND parked_at IS NULL;