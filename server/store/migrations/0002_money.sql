CREATE TABLE "wallets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"blockchain" text NOT NULL,
	"address" text NOT NULL,
	"is_default" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_balances" (
	"partner_id" uuid NOT NULL,
	"account" text NOT NULL,
	"blockchain" text NOT NULL,
	"asset" text NOT NULL,
	"balance" numeric(38, 6) DEFAULT '0' NOT NULL,
	"allow_negative" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_balances_partner_id_account_blockchain_asset_pk" PRIMARY KEY("partner_id","account","blockchain","asset"),
	CONSTRAINT "ledger_balances_not_negative" CHECK ("ledger_balances"."allow_negative" OR "ledger_balances"."balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"movement_id" uuid NOT NULL,
	"account" text NOT NULL,
	"blockchain" text NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric(38, 6) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_movements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchange_rates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"quote" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_fees" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"wallet_address" text NOT NULL,
	"blockchain" text NOT NULL,
	"fees" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "limit_overrides" (
	"partner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"single" numeric(20, 2),
	"daily" numeric(20, 2),
	"monthly" numeric(20, 2),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "limit_overrides_partner_id_customer_id_pk" PRIMARY KEY("partner_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "limit_reservations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"amount_usd" numeric(20, 2) NOT NULL,
	"reference" text,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "wallets_customer_chain_uq" ON "wallets" USING btree ("customer_id","blockchain");--> statement-breakpoint
CREATE UNIQUE INDEX "wallets_chain_address_uq" ON "wallets" USING btree ("blockchain","address");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("partner_id","account","blockchain","asset");--> statement-breakpoint
CREATE INDEX "ledger_entries_movement_idx" ON "ledger_entries" USING btree ("movement_id");--> statement-breakpoint
CREATE INDEX "exchange_rates_customer_idx" ON "exchange_rates" USING btree ("partner_id","customer_id");--> statement-breakpoint
CREATE INDEX "limit_reservations_customer_idx" ON "limit_reservations" USING btree ("partner_id","customer_id","created_at");