CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"associated_party_id" uuid,
	"type" text NOT NULL,
	"side" text,
	"country" text,
	"status" text DEFAULT 'SENT' NOT NULL,
	"comment" text,
	"reject_labels" jsonb,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "associated_parties" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"parent_id" uuid,
	"type" text NOT NULL,
	"roles" jsonb NOT NULL,
	"ownership_percentage" numeric(5, 2),
	"name" text,
	"legal_name" text,
	"tax_id" text NOT NULL,
	"birth_date" date,
	"incorporation_date" date,
	"email" text NOT NULL,
	"address" jsonb NOT NULL,
	"verification_status" text DEFAULT 'NOT_STARTED' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verifications" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"status" text NOT NULL,
	"status_reason" jsonb,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "liveness_completed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "documents_customer_idx" ON "documents" USING btree ("partner_id","customer_id","id");--> statement-breakpoint
CREATE INDEX "associated_parties_customer_idx" ON "associated_parties" USING btree ("partner_id","customer_id","id");--> statement-breakpoint
CREATE INDEX "verifications_customer_idx" ON "verifications" USING btree ("partner_id","customer_id","id");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE done_at IS NULL;