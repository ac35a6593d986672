CREATE TABLE "app"."health_rollup" (
	"series" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"up" integer NOT NULL,
	"counted" integer NOT NULL,
	CONSTRAINT "health_rollup_series_hour_pk" PRIMARY KEY("series","hour")
);
--> statement-breakpoint
CREATE TABLE "app"."health_sample" (
	"series" text NOT NULL,
	"sampled_at" timestamp with time zone NOT NULL,
	"state" text NOT NULL,
	CONSTRAINT "health_sample_series_sampled_at_pk" PRIMARY KEY("series","sampled_at")
);
--> statement-breakpoint
ALTER TABLE "app"."daily_counter" ADD COLUMN "bucket" text DEFAULT 'production' NOT NULL;--> statement-breakpoint
ALTER TABLE "app"."daily_counter" DROP CONSTRAINT "daily_counter_day_name_pk";--> statement-breakpoint
ALTER TABLE "app"."daily_counter" ADD CONSTRAINT "daily_counter_day_bucket_name_pk" PRIMARY KEY("day","bucket","name");
