CREATE TABLE "chain_cursors" (
	"blockchain" text PRIMARY KEY NOT NULL,
	"scanned_block" bigint NOT NULL,
	"leader" text,
	"lease_until" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_deposits" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"blockchain" text NOT NULL,
	"asset" text NOT NULL,
	"token" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"value" numeric(38, 6) NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"transaction_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "chain_deposits_log_idx" ON "chain_deposits" USING btree ("blockchain","transaction_hash","log_index");--> statement-breakpoint
CREATE INDEX "chain_deposits_customer_idx" ON "chain_deposits" USING btree ("partner_id","customer_id");