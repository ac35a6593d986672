CREATE TABLE "app"."x402_job_lease" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "x402_voucher_accepted_idx" ON "app"."x402_voucher" USING btree ("accepted_at");