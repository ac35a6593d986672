CREATE TABLE "app"."x402_voucher" (
	"channel_id" text NOT NULL,
	"cumulative_amount" numeric(78, 0) NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"signature" text NOT NULL,
	"route" text NOT NULL,
	"answer_status" integer NOT NULL,
	"answer_sha256" text NOT NULL,
	"accepted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "x402_voucher_channel_id_cumulative_amount_pk" PRIMARY KEY("channel_id","cumulative_amount")
);
