CREATE TABLE "pix_charges" (
	"txid" text PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"transaction_id" uuid NOT NULL,
	"valor" numeric(14, 2) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"checks" integer DEFAULT 0 NOT NULL,
	"next_check_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pix_charges_transaction_id_unique" UNIQUE("transaction_id")
);
--> statement-breakpoint
CREATE TABLE "pix_receipts" (
	"e2eid" text PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"transaction_id" uuid,
	"txid" text,
	"valor" numeric(14, 2) NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"refund_id" text,
	"refund_status" text,
	"received_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "pix_charges_due_idx" ON "pix_charges" USING btree ("status","next_check_at");--> statement-breakpoint
CREATE INDEX "pix_receipts_transaction_idx" ON "pix_receipts" USING btree ("transaction_id");