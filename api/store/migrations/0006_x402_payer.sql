ALTER TABLE "app"."x402_payment" ADD COLUMN "payer_key" text;--> statement-breakpoint
CREATE INDEX "x402_payment_payer_idx" ON "app"."x402_payment" USING btree ("payer_key","status");