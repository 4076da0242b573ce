CREATE TABLE "bank_accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"name" text NOT NULL,
	"rail" text NOT NULL,
	"currency" text NOT NULL,
	"identifier" jsonb NOT NULL,
	"holder" jsonb NOT NULL,
	"holder_status" text NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"blockchain" text NOT NULL,
	"request" jsonb NOT NULL,
	"quote" jsonb,
	"payment" jsonb,
	"receipt" jsonb,
	"error" jsonb,
	"bank_account_id" uuid,
	"exchange_rate_id" uuid,
	"amount_usd" numeric(20, 2) NOT NULL,
	"estimated_settlement_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "bank_accounts_partner_idx" ON "bank_accounts" USING btree ("partner_id","id");--> statement-breakpoint
CREATE INDEX "bank_accounts_customer_idx" ON "bank_accounts" USING btree ("partner_id","customer_id","id");--> statement-breakpoint
CREATE INDEX "transactions_partner_idx" ON "transactions" USING btree ("partner_id","id");--> statement-breakpoint
CREATE INDEX "transactions_customer_idx" ON "transactions" USING btree ("partner_id","customer_id","id");