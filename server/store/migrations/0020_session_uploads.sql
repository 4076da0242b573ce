CREATE TABLE "session_uploads" (
	"lineage" text PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "session_uploads_expires_idx" ON "session_uploads" USING btree ("expires_at");