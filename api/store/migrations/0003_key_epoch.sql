CREATE TABLE "app"."key_epoch" (
	"id" integer PRIMARY KEY NOT NULL,
	"epoch" bigint NOT NULL,
	CONSTRAINT "key_epoch_one_row" CHECK ("app"."key_epoch"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "app"."key_epoch" ("id", "epoch") VALUES (1, 0);--> statement-breakpoint
-- Every statement that updates, deletes or truncates keys moves the epoch in its own transaction, so
-- no code path (nor an operator's SQL) can change a key without the replicas' caches hearing of it.
CREATE FUNCTION "app"."bump_key_epoch"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "app"."key_epoch" SET "epoch" = "epoch" + 1 WHERE "id" = 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "api_key_bumps_key_epoch" AFTER UPDATE OR DELETE OR TRUNCATE ON "app"."api_key"
  FOR EACH STATEMENT EXECUTE FUNCTION "app"."bump_key_epoch"();
