-- Custom migration: rate-limit counters for rate-limiter-flexible's RateLimiterPostgres (its own column layout).
-- UNLOGGED: counters need no crash safety, and skipping the WAL keeps one write per request cheap.
CREATE UNLOGGED TABLE IF NOT EXISTS "rate_limits" (
	"key" varchar(255) PRIMARY KEY,
	"points" integer NOT NULL DEFAULT 0,
	"expire" bigint
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "rate_limits_expire_idx" ON "rate_limits" ("expire");
