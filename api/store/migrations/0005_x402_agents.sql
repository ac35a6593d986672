ALTER TABLE "app"."x402_payment" ADD COLUMN "payment_identifier" text;--> statement-breakpoint
ALTER TABLE "app"."x402_payment" ADD COLUMN "request_hash" text;--> statement-breakpoint
ALTER TABLE "app"."x402_payment" ADD COLUMN "nonce" text;--> statement-breakpoint
ALTER TABLE "app"."x402_payment" ADD COLUMN "valid_before" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "app"."x402_payment" ADD COLUMN "answer" text;--> statement-breakpoint
ALTER TABLE "app"."x402_payment" ADD COLUMN "payment_response" text;--> statement-breakpoint
ALTER TABLE "app"."x402_payment" ADD COLUMN "retained_until" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "x402_payment_identifier_idx" ON "app"."x402_payment" USING btree ("payment_identifier");--> statement-breakpoint
CREATE INDEX "x402_payment_retained_idx" ON "app"."x402_payment" USING btree ("retained_until");