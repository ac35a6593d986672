CREATE TABLE "app"."x402_payment" (
	"id" text PRIMARY KEY NOT NULL,
	"route" text NOT NULL,
	"network" text NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text NOT NULL,
	"tx_hash" text,
	"reason" text,
	"claimed_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "x402_payment_settled_idx" ON "app"."x402_payment" USING btree ("status","settled_at");