CREATE TABLE "pix_payouts" (
	"id_envio" text PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"transaction_id" uuid NOT NULL,
	"valor" numeric(14, 2) NOT NULL,
	"favorecido_chave" text NOT NULL,
	"status" text NOT NULL,
	"e2e_id" text,
	"checks" integer DEFAULT 0 NOT NULL,
	"next_check_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pix_payouts_transaction_id_unique" UNIQUE("transaction_id")
);
--> statement-breakpoint
CREATE INDEX "pix_payouts_due_idx" ON "pix_payouts" USING btree ("status","next_check_at");