CREATE SCHEMA "app";
--> statement-breakpoint
CREATE TABLE "app"."api_key" (
	"id" text PRIMARY KEY NOT NULL,
	"secret_hash" text NOT NULL,
	"secret_version" integer DEFAULT 1 NOT NULL,
	"tier" text NOT NULL,
	"wallet" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"cycle_anchor" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "app"."credit_usage" (
	"key_id" text PRIMARY KEY NOT NULL,
	"cycle" integer NOT NULL,
	"used" integer NOT NULL,
	"day" integer NOT NULL,
	"day_used" integer NOT NULL,
	CONSTRAINT "credit_usage_used_nonnegative" CHECK ("app"."credit_usage"."used" >= 0 AND "app"."credit_usage"."day_used" >= 0)
);
--> statement-breakpoint
CREATE TABLE "app"."daily_counter" (
	"day" text NOT NULL,
	"name" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "daily_counter_day_name_pk" PRIMARY KEY("day","name")
);
--> statement-breakpoint
CREATE TABLE "app"."intent" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"wallet" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"tier" text,
	"duration_days" integer,
	"amount_usdc" numeric(78, 0),
	"amount_wei" numeric(78, 0),
	"target_key_id" text,
	"target_secret_version" integer
);
--> statement-breakpoint
CREATE TABLE "app"."redemption" (
	"tx_hash" text PRIMARY KEY NOT NULL,
	"intent_id" text NOT NULL,
	"key_id" text NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"redeemed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "api_key_secret_hash_key" ON "app"."api_key" USING btree ("secret_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "api_key_one_free_per_wallet" ON "app"."api_key" USING btree ("wallet") WHERE "app"."api_key"."tier" = 'FREE';--> statement-breakpoint
CREATE INDEX "api_key_wallet_idx" ON "app"."api_key" USING btree ("wallet");--> statement-breakpoint
CREATE UNIQUE INDEX "redemption_intent_id_key" ON "app"."redemption" USING btree ("intent_id");--> statement-breakpoint
CREATE INDEX "redemption_key_id_idx" ON "app"."redemption" USING btree ("key_id");