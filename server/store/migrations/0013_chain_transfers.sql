CREATE TABLE "chain_transfers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"blockchain" text NOT NULL,
	"kind" text NOT NULL,
	"transaction_id" uuid NOT NULL,
	"asset" text NOT NULL,
	"token" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"value" numeric(38, 6) NOT NULL,
	"amount" numeric(78, 0),
	"status" text NOT NULL,
	"nonce" integer,
	"gas" numeric(78, 0),
	"max_fee_per_gas" numeric(78, 0),
	"max_priority_fee_per_gas" numeric(78, 0),
	"raw" text,
	"hash" text,
	"hashes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"retired_hashes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"signed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"included_block_number" bigint,
	"included_block_hash" text,
	"confirmed_at" timestamp with time zone,
	"failures" integer DEFAULT 0 NOT NULL,
	"wait_reason" text,
	"last_error" text,
	"next_check_at" timestamp with time zone NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_nonces" (
	"blockchain" text NOT NULL,
	"address" text NOT NULL,
	"next_nonce" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_nonces_blockchain_address_pk" PRIMARY KEY("blockchain","address")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "chain_transfers_transaction_idx" ON "chain_transfers" USING btree ("kind","transaction_id");--> statement-breakpoint
CREATE INDEX "chain_transfers_due_idx" ON "chain_transfers" USING btree ("next_check_at") WHERE status <> 'CONFIRMED';--> statement-breakpoint
CREATE UNIQUE INDEX "chain_transfers_nonce_idx" ON "chain_transfers" USING btree ("blockchain","from_address","nonce") WHERE nonce IS NOT NULL;