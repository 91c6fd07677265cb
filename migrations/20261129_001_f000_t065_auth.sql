-- fragment-cli migration of schema "auth" in namespace "auth": version 0 to 65
-- Generated from the schema definition; do not edit.
-- One transaction: apply with psql -v ON_ERROR_STOP=1 -f <file>, or with fragment-cli db migrate.

-- Runner bookkeeping and version check
BEGIN;

DO $lock$ BEGIN PERFORM pg_advisory_xact_lock(1718772071, hashtext('fragment_internal')); END $lock$;

CREATE SCHEMA IF NOT EXISTS "fragment_internal";

CREATE TABLE IF NOT EXISTS "fragment_internal"."schema_versions" (
  "namespace" text PRIMARY KEY,
  "schema_name" text NOT NULL,
  "version" integer NOT NULL CHECK ("version" >= 0),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS "fragment_internal"."applied_steps" (
  "namespace" text NOT NULL,
  "version" integer NOT NULL,
  "fingerprint" text NOT NULL,
  "description" text NOT NULL,
  "applied_at" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("namespace", "version")
);

DO $guard$
DECLARE recorded integer;
BEGIN
  PERFORM pg_advisory_xact_lock(1718772071, hashtext('auth'));
  SELECT "version" INTO recorded FROM "fragment_internal"."schema_versions" WHERE "namespace" = 'auth';
  IF COALESCE(recorded, 0) <> 0 THEN
    RAISE EXCEPTION 'Namespace "%" is at version %, this file migrates it from version 0; nothing applied',
      'auth', COALESCE(recorded, 0);
  END IF;
END
$guard$;

-- Step 1: createTable "users"
CREATE SCHEMA IF NOT EXISTS "auth";

CREATE TABLE "auth"."users" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "email" text NOT NULL,
  "password_hash" text NOT NULL,
  "role" text NOT NULL DEFAULT 'user',
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "users_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "users_email_key" UNIQUE ("email")
);

-- Step 2: createTable "sessions"
CREATE TABLE "auth"."sessions" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "user_id" uuid NOT NULL,
  "token_hash" text NOT NULL,
  "expires_at" timestamptz NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "sessions_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "sessions_token_hash_key" UNIQUE ("token_hash"),
  CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "auth"."users" ("id") ON DELETE CASCADE
);

-- Step 3: addIndex "sessions_user_id_idx" on "sessions"
CREATE INDEX "sessions_user_id_idx" ON "auth"."sessions" ("user_id");

-- Step 4: createTable "organizations"
CREATE TABLE "auth"."organizations" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "name" text NOT NULL,
  "slug" text NOT NULL,
  "logo_url" text,
  "metadata" jsonb,
  "created_by" uuid NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  "deleted_at" timestamptz,
  CONSTRAINT "organizations_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "organizations_slug_key" UNIQUE ("slug"),
  CONSTRAINT "organizations_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "auth"."users" ("id")
);

-- Step 5: createTable "members"
CREATE TABLE "auth"."members" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" uuid NOT NULL,
  "user_id" uuid NOT NULL,
  "roles" jsonb NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "members_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "members_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "auth"."organizations" ("id") ON DELETE CASCADE,
  CONSTRAINT "members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "auth"."users" ("id") ON DELETE CASCADE
);

-- Step 6: addIndex "members_organization_user_key" on "members"
CREATE UNIQUE INDEX "members_organization_user_key" ON "auth"."members" ("organization_id", "user_id");

-- Step 7: addIndex "members_user_id_idx" on "members"
CREATE INDEX "members_user_id_idx" ON "auth"."members" ("user_id");

-- Step 8: createTable "invitations"
CREATE TABLE "auth"."invitations" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" uuid NOT NULL,
  "email" text NOT NULL,
  "roles" jsonb NOT NULL,
  "status" text NOT NULL DEFAULT 'pending',
  "token" text NOT NULL,
  "inviter_id" uuid NOT NULL,
  "expires_at" timestamptz NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  "responded_at" timestamptz,
  CONSTRAINT "invitations_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "invitations_token_key" UNIQUE ("token"),
  CONSTRAINT "invitations_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "auth"."organizations" ("id") ON DELETE CASCADE,
  CONSTRAINT "invitations_inviter_id_fkey" FOREIGN KEY ("inviter_id") REFERENCES "auth"."users" ("id") ON DELETE CASCADE
);

-- Step 9: addIndex "invitations_pending_email_key" on "invitations"
CREATE UNIQUE INDEX "invitations_pending_email_key" ON "auth"."invitations" ("organization_id", "email") WHERE status = 'pending';

-- Step 10: addIndex "invitations_email_idx" on "invitations"
CREATE INDEX "invitations_email_idx" ON "auth"."invitations" ("email", "status");

-- Step 11: addIndex "invitations_organization_idx" on "invitations"
CREATE INDEX "invitations_organization_idx" ON "auth"."invitations" ("organization_id", "created_at", "id");

-- Step 12: addColumn "sessions"."active_organization_id"
ALTER TABLE "auth"."sessions" ADD COLUMN "active_organization_id" uuid CONSTRAINT "sessions_active_organization_id_fkey" REFERENCES "auth"."organizations" ("id") ON DELETE SET NULL;

-- Step 13: createTable "hook_occurrences"
CREATE TABLE "auth"."hook_occurrences" (
  "id" bigint NOT NULL GENERATED BY DEFAULT AS IDENTITY,
  "name" text NOT NULL,
  "key" text,
  "payload" jsonb,
  "status" text NOT NULL DEFAULT 'pending',
  "attempts" integer NOT NULL DEFAULT 0,
  "due_at" timestamptz NOT NULL DEFAULT now(),
  "leased_by" text,
  "last_error" text,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  "finished_at" timestamptz,
  CONSTRAINT "hook_occurrences_pkey" PRIMARY KEY ("id")
);

-- Step 14: addIndex "hook_occurrences_name_key_idx" on "hook_occurrences"
CREATE UNIQUE INDEX "hook_occurrences_name_key_idx" ON "auth"."hook_occurrences" ("name", "key");

-- Step 15: addIndex "hook_occurrences_due_idx" on "hook_occurrences"
CREATE INDEX "hook_occurrences_due_idx" ON "auth"."hook_occurrences" ("due_at") WHERE status IN ('pending', 'running');

-- Step 16: addIndex "hook_occurrences_status_idx" on "hook_occurrences"
CREATE INDEX "hook_occurrences_status_idx" ON "auth"."hook_occurrences" ("status", "id");

-- Step 17: addIndex "members_organization_page_idx" on "members"
CREATE INDEX "members_organization_page_idx" ON "auth"."members" ("organization_id", "created_at", "id");

-- Step 18: addColumn "users"."email_verified_at"
ALTER TABLE "auth"."users" ADD COLUMN "email_verified_at" timestamptz;

-- Step 19: createTable "email_verifications"
CREATE TABLE "auth"."email_verifications" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "user_id" uuid NOT NULL,
  "email" text NOT NULL,
  "token_hash" text NOT NULL,
  "expires_at" timestamptz NOT NULL,
  "used_at" timestamptz,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "email_verifications_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "email_verifications_token_hash_key" UNIQUE ("token_hash"),
  CONSTRAINT "email_verifications_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "auth"."users" ("id") ON DELETE CASCADE
);

-- Step 20: addIndex "email_verifications_user_id_idx" on "email_verifications"
CREATE INDEX "email_verifications_user_id_idx" ON "auth"."email_verifications" ("user_id");

-- Step 21: renameColumn "invitations"."token" to "token_hash"
ALTER TABLE "auth"."invitations" RENAME COLUMN "token" TO "token_hash";

-- Step 22: sql
UPDATE "auth"."invitations" SET token_hash = encode(sha256(convert_to(token_hash, 'UTF8')), 'hex');

-- Step 23: createTable "rate_limits"
CREATE TABLE "auth"."rate_limits" (
  "bucket" text NOT NULL,
  "window_started_at" timestamptz NOT NULL,
  "hits" integer NOT NULL,
  CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("bucket")
);

-- Step 24: addIndex "rate_limits_window_idx" on "rate_limits"
CREATE INDEX "rate_limits_window_idx" ON "auth"."rate_limits" ("window_started_at");

-- Step 25: addColumn "hook_occurrences"."errors"
ALTER TABLE "auth"."hook_occurrences" ADD COLUMN "errors" jsonb NOT NULL DEFAULT '[]'::jsonb;

-- Step 26: addColumn "hook_occurrences"."order_key"
ALTER TABLE "auth"."hook_occurrences" ADD COLUMN "order_key" text;

-- Step 27: addIndex "hook_occurrences_order_key_idx" on "hook_occurrences"
CREATE INDEX "hook_occurrences_order_key_idx" ON "auth"."hook_occurrences" ("order_key", "id") WHERE order_key IS NOT NULL AND status IN ('pending', 'running', 'blocked');

-- Step 28: sql
CREATE FUNCTION "auth"."hook_order_enter"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('auth'), hashtext(NEW.order_key));
  IF EXISTS (SELECT 1 FROM "auth"."hook_occurrences"
             WHERE order_key = NEW.order_key AND status IN ('pending', 'running', 'blocked') AND id <> NEW.id) THEN
    NEW.status := 'blocked';
  END IF;
  RETURN NEW;
END
$fn$;

CREATE FUNCTION "auth"."hook_order_leave"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('auth'), hashtext(OLD.order_key));
  UPDATE "auth"."hook_occurrences" SET status = 'pending', updated_at = clock_timestamp()
  WHERE id = (SELECT id FROM "auth"."hook_occurrences"
              WHERE order_key = OLD.order_key AND status IN ('pending', 'running', 'blocked') AND status = 'blocked'
              ORDER BY order_key, id LIMIT 1);
  RETURN NULL;
END
$fn$;

CREATE TRIGGER "hook_order_enqueued" BEFORE INSERT ON "auth"."hook_occurrences" FOR EACH ROW
WHEN (NEW.order_key IS NOT NULL AND NEW.status = 'pending') EXECUTE FUNCTION "auth"."hook_order_enter"();

CREATE TRIGGER "hook_order_retried" BEFORE UPDATE OF status ON "auth"."hook_occurrences" FOR EACH ROW
WHEN (NEW.order_key IS NOT NULL AND NEW.status = 'pending'
      AND OLD.status IN ('done', 'failed', 'cancelled')) EXECUTE FUNCTION "auth"."hook_order_enter"();

CREATE TRIGGER "hook_order_finished" AFTER UPDATE OF status ON "auth"."hook_occurrences" FOR EACH ROW
WHEN (OLD.order_key IS NOT NULL AND OLD.status IN ('pending', 'running')
      AND NEW.status IN ('done', 'failed', 'cancelled')) EXECUTE FUNCTION "auth"."hook_order_leave"();

CREATE TRIGGER "hook_order_deleted" AFTER DELETE ON "auth"."hook_occurrences" FOR EACH ROW
WHEN (OLD.order_key IS NOT NULL AND OLD.status IN ('pending', 'running'))
EXECUTE FUNCTION "auth"."hook_order_leave"();

-- Step 29: sql
CREATE FUNCTION "auth"."hook_claim"(p_names text[], p_limit int4, p_lease_ms int8,
  p_worker text, p_ordered boolean) RETURNS TABLE (id int8, name text, key text, payload jsonb, attempts int4, last_error text, order_key text)
LANGUAGE plpgsql SET enable_seqscan = off SET enable_sort = off SET jit = off AS $fn$
#variable_conflict use_column
BEGIN
  IF p_ordered THEN
    RETURN QUERY UPDATE "auth"."hook_occurrences" AS o
      SET status = 'running', attempts = o.attempts + 1, due_at = clock_timestamp() + p_lease_ms * interval '1 millisecond',
        leased_by = p_worker, updated_at = clock_timestamp()
      WHERE o.id = ANY(ARRAY(
        SELECT h.id FROM "auth"."hook_occurrences" AS h
        WHERE h.status IN ('pending', 'running') AND h.due_at <= clock_timestamp()
          AND h.name = ANY(p_names)
        ORDER BY h.due_at
        LIMIT p_limit
        FOR UPDATE SKIP LOCKED))
      RETURNING o.id, o.name, o.key, o.payload, o.attempts, o.last_error, o.order_key;
  ELSE
    RETURN QUERY UPDATE "auth"."hook_occurrences" AS o
      SET status = 'running', attempts = o.attempts + 1, due_at = clock_timestamp() + p_lease_ms * interval '1 millisecond',
        leased_by = p_worker, updated_at = clock_timestamp()
      WHERE o.id = ANY(ARRAY(
        SELECT h.id FROM "auth"."hook_occurrences" AS h
        WHERE h.status IN ('pending', 'running') AND h.due_at <= clock_timestamp()
          AND h.name = ANY(p_names)
        ORDER BY h.due_at
        LIMIT p_limit
        FOR UPDATE SKIP LOCKED))
      RETURNING o.id, o.name, o.key, o.payload, o.attempts, o.last_error, NULL::text;
  END IF;
END
$fn$;

CREATE FUNCTION "auth"."hook_complete"(p_ids int8[], p_attempts int4[],
  p_order_keys text[], p_names text[], p_lease_ms int8, p_worker text)
RETURNS TABLE (outcome text, id int8, name text, key text, payload jsonb, attempts int4, last_error text, order_key text)
LANGUAGE plpgsql SET enable_seqscan = off SET enable_sort = off SET jit = off AS $fn$
#variable_conflict use_column
DECLARE
  v_keys text[];
  v_locked text[];
BEGIN
  SELECT array_agg(DISTINCT k) INTO v_keys FROM unnest(p_order_keys) AS k WHERE k IS NOT NULL;
  IF v_keys IS NULL THEN
    RETURN QUERY UPDATE "auth"."hook_occurrences" AS o
      SET status = 'done', leased_by = NULL, updated_at = clock_timestamp(),
          finished_at = clock_timestamp()
      FROM unnest(p_ids, p_attempts, p_order_keys) AS held(id, attempts, order_key)
      WHERE o.id = held.id AND o.attempts = held.attempts
        AND o.status IS NOT DISTINCT FROM 'running'
      RETURNING 'done'::text, o.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4, NULL::text,
        NULL::text;
    RETURN;
  END IF;
  IF cardinality(v_keys) = 1 THEN
    PERFORM pg_advisory_xact_lock(hashtext('auth'), hashtext(v_keys[1]));
    v_locked := v_keys;
  ELSE
    SELECT COALESCE(array_agg(k), '{}') INTO v_locked FROM unnest(v_keys) AS k
    WHERE pg_try_advisory_xact_lock(hashtext('auth'), hashtext(k));
  END IF;
  RETURN QUERY UPDATE "auth"."hook_occurrences" AS o
      SET status = 'done', leased_by = NULL, updated_at = clock_timestamp(),
          finished_at = clock_timestamp()
      FROM unnest(p_ids, p_attempts, p_order_keys) AS held(id, attempts, order_key)
      WHERE o.id = held.id AND o.attempts = held.attempts
        AND o.status IS NOT DISTINCT FROM 'running'
        AND (held.order_key IS NULL OR held.order_key = ANY(v_locked))
      RETURNING 'done'::text, o.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4, NULL::text,
        NULL::text;
  RETURN QUERY SELECT 'late'::text, held.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4,
    NULL::text, NULL::text
  FROM unnest(p_ids, p_order_keys) AS held(id, order_key)
  WHERE held.order_key IS NOT NULL AND NOT (held.order_key = ANY(v_locked));
  IF cardinality(p_names) > 0 AND cardinality(v_locked) > 0 THEN
    RETURN QUERY UPDATE "auth"."hook_occurrences" AS o
      SET status = 'running', attempts = o.attempts + 1, due_at = clock_timestamp() + p_lease_ms * interval '1 millisecond',
        leased_by = p_worker, updated_at = clock_timestamp()
      WHERE o.id = ANY(ARRAY(
        SELECT h.id FROM "auth"."hook_occurrences" AS h
        WHERE h.order_key = ANY(v_locked) AND h.status = 'pending'
          AND h.due_at <= clock_timestamp() AND h.name = ANY(p_names)
        FOR UPDATE SKIP LOCKED))
      RETURNING 'claimed'::text, o.id, o.name, o.key, o.payload, o.attempts, o.last_error,
        o.order_key;
  END IF;
END
$fn$;

-- Step 30: addColumn "sessions"."last_used_at"
ALTER TABLE "auth"."sessions" ADD COLUMN "last_used_at" timestamptz;

-- Step 31: addColumn "sessions"."user_agent"
ALTER TABLE "auth"."sessions" ADD COLUMN "user_agent" text;

-- Step 32: addColumn "users"."deleted_at"
ALTER TABLE "auth"."users" ADD COLUMN "deleted_at" timestamptz;

-- Step 33: createTable "account_tokens"
CREATE TABLE "auth"."account_tokens" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "user_id" uuid NOT NULL,
  "purpose" text NOT NULL,
  "email" text NOT NULL,
  "token_hash" text NOT NULL,
  "expires_at" timestamptz NOT NULL,
  "used_at" timestamptz,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "account_tokens_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "account_tokens_token_hash_key" UNIQUE ("token_hash"),
  CONSTRAINT "account_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "auth"."users" ("id") ON DELETE CASCADE
);

-- Step 34: addIndex "account_tokens_user_purpose_idx" on "account_tokens"
CREATE INDEX "account_tokens_user_purpose_idx" ON "auth"."account_tokens" ("user_id", "purpose");

-- Step 35: createTable "telegram_accounts"
CREATE TABLE "auth"."telegram_accounts" (
  "telegram_user_id" bigint NOT NULL,
  "user_id" uuid NOT NULL,
  "username" text,
  "linked_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "telegram_accounts_pkey" PRIMARY KEY ("telegram_user_id"),
  CONSTRAINT "telegram_accounts_user_id_key" UNIQUE ("user_id"),
  CONSTRAINT "telegram_accounts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "auth"."users" ("id") ON DELETE CASCADE
);

-- Step 36: createTable "telegram_link_tokens"
CREATE TABLE "auth"."telegram_link_tokens" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "user_id" uuid NOT NULL,
  "token_hash" text NOT NULL,
  "expires_at" timestamptz NOT NULL,
  "used_at" timestamptz,
  "used_by" bigint,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "telegram_link_tokens_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "telegram_link_tokens_token_hash_key" UNIQUE ("token_hash"),
  CONSTRAINT "telegram_link_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "auth"."users" ("id") ON DELETE CASCADE
);

-- Step 37: addIndex "telegram_link_tokens_user_idx" on "telegram_link_tokens"
CREATE INDEX "telegram_link_tokens_user_idx" ON "auth"."telegram_link_tokens" ("user_id");

-- Step 38: sql
CREATE OR REPLACE FUNCTION "auth"."hook_complete"(p_ids int8[], p_attempts int4[],
  p_order_keys text[], p_names text[], p_lease_ms int8, p_worker text)
RETURNS TABLE (outcome text, id int8, name text, key text, payload jsonb, attempts int4, last_error text, order_key text)
LANGUAGE plpgsql SET enable_seqscan = off SET enable_sort = off SET jit = off
SET fragment.hook_hand_off = 'on' AS $fn$
#variable_conflict use_column
DECLARE
  v_keys text[];
  v_locked text[];
  v_done int8[];
  v_finished text[];
  v_next int8[];
BEGIN
  SELECT array_agg(DISTINCT k) INTO v_keys FROM unnest(p_order_keys) AS k WHERE k IS NOT NULL;
  IF v_keys IS NULL THEN
    RETURN QUERY UPDATE "auth"."hook_occurrences" AS o
      SET status = 'done', leased_by = NULL, updated_at = clock_timestamp(),
          finished_at = clock_timestamp()
      FROM unnest(p_ids, p_attempts, p_order_keys) AS held(id, attempts, order_key)
      WHERE o.id = held.id AND o.attempts = held.attempts
        AND o.status IS NOT DISTINCT FROM 'running'
      RETURNING 'done'::text, o.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4, NULL::text,
        NULL::text;
    RETURN;
  END IF;
  IF cardinality(v_keys) = 1 THEN
    PERFORM pg_advisory_xact_lock(hashtext('auth'), hashtext(v_keys[1]));
    v_locked := v_keys;
  ELSE
    SELECT COALESCE(array_agg(k), '{}') INTO v_locked FROM unnest(v_keys) AS k
    WHERE pg_try_advisory_xact_lock(hashtext('auth'), hashtext(k));
  END IF;
  WITH finished AS (UPDATE "auth"."hook_occurrences" AS o
      SET status = 'done', leased_by = NULL, updated_at = clock_timestamp(),
          finished_at = clock_timestamp()
      FROM unnest(p_ids, p_attempts, p_order_keys) AS held(id, attempts, order_key)
      WHERE o.id = held.id AND o.attempts = held.attempts
        AND o.status IS NOT DISTINCT FROM 'running'
        AND (held.order_key IS NULL OR held.order_key = ANY(v_locked))
    RETURNING o.id, o.order_key)
  SELECT array_agg(f.id), array_agg(f.order_key) FILTER (WHERE f.order_key IS NOT NULL)
  INTO v_done, v_finished FROM finished AS f;
  RETURN QUERY SELECT 'done'::text, d.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4,
    NULL::text, NULL::text
  FROM unnest(v_done) AS d(id);
  RETURN QUERY SELECT 'late'::text, held.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4,
    NULL::text, NULL::text
  FROM unnest(p_ids, p_order_keys) AS held(id, order_key)
  WHERE held.order_key IS NOT NULL AND NOT (held.order_key = ANY(v_locked));
  IF v_finished IS NULL THEN
    RETURN;
  END IF;
  -- Each key's oldest blocked occurrence, among the key's unfinished ones (the ordering index;
  -- OFFSET 0 keeps min() from becoming a walk of the primary key in id order, which read every
  -- finished occurrence older than the key's next one: thousands per key on deep chains).
  SELECT array_agg(n.id) INTO v_next FROM unnest(v_finished) AS f(k)
  CROSS JOIN LATERAL (SELECT min(b.id) AS id FROM (
    SELECT h.id FROM "auth"."hook_occurrences" AS h
    WHERE h.order_key = f.k AND h.status IN ('pending', 'running', 'blocked') AND h.status = 'blocked' OFFSET 0) AS b
  ) AS n
  WHERE n.id IS NOT NULL;
  IF v_next IS NULL THEN
    RETURN;
  END IF;
  IF cardinality(p_names) > 0 THEN
    RETURN QUERY UPDATE "auth"."hook_occurrences" AS o
      SET status = 'running', attempts = o.attempts + 1, due_at = clock_timestamp() + p_lease_ms * interval '1 millisecond',
        leased_by = p_worker, updated_at = clock_timestamp()
      FROM unnest(v_next) AS n(id)
      WHERE o.id = n.id AND o.status IS NOT DISTINCT FROM 'blocked'
        AND o.due_at <= clock_timestamp() AND (o.name = ANY(p_names)) IS TRUE
      RETURNING 'claimed'::text, o.id, o.name, o.key, o.payload, o.attempts, o.last_error,
        o.order_key;
  END IF;
  UPDATE "auth"."hook_occurrences" AS o SET status = 'pending', updated_at = clock_timestamp()
  FROM unnest(v_next) AS n(id)
  WHERE o.id = n.id AND o.status IS NOT DISTINCT FROM 'blocked';
END
$fn$;

CREATE FUNCTION "auth"."hook_enqueue_ordered"(p_name text, p_keys text[],
  p_payloads jsonb[], p_due_at timestamptz, p_order_keys text[]) RETURNS int8
LANGUAGE plpgsql SET enable_seqscan = off SET jit = off SET fragment.hook_hand_off = 'on' AS $fn$
DECLARE
  v_busy text[];
  v_count int8;
BEGIN
  IF cardinality(p_keys) IS NULL THEN
    RETURN 0;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('auth'), l.id)
  FROM (SELECT DISTINCT hashtext(k) AS id FROM unnest(p_order_keys) AS k WHERE k IS NOT NULL) AS l
  ORDER BY l.id;
  SELECT COALESCE(array_agg(b.k), '{}') INTO v_busy
  FROM (SELECT DISTINCT k FROM unnest(p_order_keys) AS k WHERE k IS NOT NULL) AS b(k)
  CROSS JOIN LATERAL (SELECT 1 FROM "auth"."hook_occurrences" AS h
    WHERE h.order_key = b.k AND h.status IN ('pending', 'running', 'blocked') LIMIT 1) AS busy;
  WITH inserted AS (
    INSERT INTO "auth"."hook_occurrences" (name, key, payload, due_at, order_key, status)
    SELECT p_name, i.key, i.payload, COALESCE(p_due_at, now()), i.order_key,
      CASE WHEN i.order_key IS NOT NULL AND (i.order_key = ANY(v_busy)
          OR row_number() OVER (PARTITION BY i.order_key ORDER BY i.n) > 1)
        THEN 'blocked' ELSE 'pending' END
    FROM unnest(p_keys, p_payloads, p_order_keys) WITH ORDINALITY AS i(key, payload, order_key, n)
    ORDER BY i.n
    ON CONFLICT (name, key) DO NOTHING RETURNING 1)
  SELECT count(*) INTO v_count FROM inserted;
  IF v_count < cardinality(p_keys) THEN
    UPDATE "auth"."hook_occurrences" AS o SET status = 'pending', updated_at = clock_timestamp()
    WHERE o.id IN (
      SELECT (SELECT h.id FROM "auth"."hook_occurrences" AS h
              WHERE h.order_key = k.k AND h.status IN ('pending', 'running', 'blocked') AND h.status = 'blocked'
              ORDER BY h.order_key, h.id LIMIT 1)
      FROM (SELECT DISTINCT k FROM unnest(p_order_keys) AS k WHERE k IS NOT NULL) AS k(k)
      WHERE NOT EXISTS (SELECT 1 FROM "auth"."hook_occurrences" AS h
                        WHERE h.order_key = k.k AND h.status IN ('pending', 'running')));
  END IF;
  RETURN v_count;
END
$fn$;

DROP TRIGGER "hook_order_enqueued" ON "auth"."hook_occurrences";

CREATE TRIGGER "hook_order_enqueued" BEFORE INSERT ON "auth"."hook_occurrences" FOR EACH ROW
WHEN (NEW.order_key IS NOT NULL AND NEW.status = 'pending'
      AND current_setting('fragment.hook_hand_off', true) IS DISTINCT FROM 'on')
EXECUTE FUNCTION "auth"."hook_order_enter"();

DROP TRIGGER "hook_order_finished" ON "auth"."hook_occurrences";

CREATE TRIGGER "hook_order_finished" AFTER UPDATE OF status ON "auth"."hook_occurrences" FOR EACH ROW
WHEN (OLD.order_key IS NOT NULL AND OLD.status IN ('pending', 'running')
      AND NEW.status IN ('done', 'failed', 'cancelled')
      AND current_setting('fragment.hook_hand_off', true) IS DISTINCT FROM 'on')
EXECUTE FUNCTION "auth"."hook_order_leave"();

-- Step 39: createTable "organization_audit_log"
CREATE TABLE "auth"."organization_audit_log" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "organization_id" uuid NOT NULL,
  "action" text NOT NULL,
  "actor_user_id" uuid,
  "target_type" text NOT NULL,
  "target_id" uuid NOT NULL,
  "data" jsonb NOT NULL DEFAULT '{}'::jsonb,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "seq" bigint NOT NULL GENERATED BY DEFAULT AS IDENTITY,
  CONSTRAINT "organization_audit_log_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "organization_audit_log_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "auth"."organizations" ("id") ON DELETE CASCADE
);

-- Step 40: addIndex "organization_audit_log_page_idx" on "organization_audit_log"
CREATE INDEX "organization_audit_log_page_idx" ON "auth"."organization_audit_log" ("organization_id", "seq");

-- Step 41: addIndex "organization_audit_log_created_idx" on "organization_audit_log"
CREATE INDEX "organization_audit_log_created_idx" ON "auth"."organization_audit_log" ("created_at");

-- Step 42: sql
CREATE OR REPLACE FUNCTION "auth"."hook_complete"(p_ids int8[], p_attempts int4[],
  p_order_keys text[], p_names text[], p_lease_ms int8, p_worker text)
RETURNS TABLE (outcome text, id int8, name text, key text, payload jsonb, attempts int4, last_error text, order_key text)
LANGUAGE plpgsql SET enable_seqscan = off SET enable_sort = off SET jit = off
SET fragment.hook_hand_off = 'on' AS $fn$
#variable_conflict use_column
DECLARE
  v_keys text[];
  v_locked text[];
  v_done int8[];
  v_finished text[];
  v_next int8[];
BEGIN
  SELECT array_agg(DISTINCT k) INTO v_keys FROM unnest(p_order_keys) AS k WHERE k IS NOT NULL;
  IF v_keys IS NULL THEN
    RETURN QUERY UPDATE "auth"."hook_occurrences" AS o
      SET status = 'done', leased_by = NULL, updated_at = clock_timestamp(),
          finished_at = clock_timestamp()
      FROM unnest(p_ids, p_attempts, p_order_keys) AS held(id, attempts, order_key)
      WHERE o.id = held.id AND o.attempts = held.attempts
        AND o.status IS NOT DISTINCT FROM 'running'
      RETURNING 'done'::text, o.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4, NULL::text,
        NULL::text;
    RETURN;
  END IF;
  IF cardinality(v_keys) = 1 THEN
    PERFORM pg_advisory_xact_lock(hashtext('auth'), hashtext(v_keys[1]));
    v_locked := v_keys;
  ELSE
    SELECT COALESCE(array_agg(k), '{}') INTO v_locked FROM unnest(v_keys) AS k
    WHERE pg_try_advisory_xact_lock(hashtext('auth'), hashtext(k));
  END IF;
  SELECT array_agg(x.id) INTO v_done
  FROM unnest(p_ids, p_attempts, p_order_keys) AS held(id, attempts, order_key)
  CROSS JOIN LATERAL (SELECT o.id FROM "auth"."hook_occurrences" AS o
    WHERE o.id = held.id AND o.attempts = held.attempts
      AND o.status IS NOT DISTINCT FROM 'running' FOR UPDATE) AS x
  WHERE cardinality(v_locked) = cardinality(v_keys) OR held.order_key IS NULL
    OR held.order_key = ANY(v_locked);
  WITH finished AS (UPDATE "auth"."hook_occurrences" AS o
      SET status = 'done', leased_by = NULL, updated_at = clock_timestamp(),
          finished_at = clock_timestamp()
      WHERE o.id = ANY(v_done)
    RETURNING o.order_key)
  SELECT array_agg(f.order_key) FILTER (WHERE f.order_key IS NOT NULL)
  INTO v_finished FROM finished AS f;
  RETURN QUERY SELECT 'done'::text, d.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4,
    NULL::text, NULL::text
  FROM unnest(v_done) AS d(id);
  IF cardinality(v_locked) < cardinality(v_keys) THEN
    RETURN QUERY SELECT 'late'::text, held.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4,
      NULL::text, NULL::text
    FROM unnest(p_ids, p_order_keys) AS held(id, order_key)
    WHERE held.order_key IS NOT NULL AND NOT (held.order_key = ANY(v_locked));
  END IF;
  IF v_finished IS NULL THEN
    RETURN;
  END IF;
  -- Each key's oldest blocked occurrence: a walk of the ordering index from the key's start,
  -- stopped at the first blocked one (the key compared by a range: see withHookHandOffLookup).
  SELECT array_agg(n.id) INTO v_next FROM unnest(v_finished) AS f(k)
  CROSS JOIN LATERAL (SELECT h.id FROM "auth"."hook_occurrences" AS h
    WHERE h.order_key >= f.k AND h.order_key <= f.k
      AND h.status IN ('pending', 'running', 'blocked') AND h.status = 'blocked'
    ORDER BY h.order_key, h.id LIMIT 1) AS n;
  IF v_next IS NULL THEN
    RETURN;
  END IF;
  IF cardinality(p_names) > 0 THEN
    RETURN QUERY UPDATE "auth"."hook_occurrences" AS o
      SET status = 'running', attempts = o.attempts + 1, due_at = clock_timestamp() + p_lease_ms * interval '1 millisecond',
        leased_by = p_worker, updated_at = clock_timestamp()
      FROM unnest(v_next) AS n(id)
      WHERE o.id = n.id AND o.status IS NOT DISTINCT FROM 'blocked'
        AND o.due_at <= clock_timestamp() AND (o.name = ANY(p_names)) IS TRUE
      RETURNING 'claimed'::text, o.id, o.name, o.key, o.payload, o.attempts, o.last_error,
        o.order_key;
  END IF;
  UPDATE "auth"."hook_occurrences" AS o SET status = 'pending', updated_at = clock_timestamp()
  FROM unnest(v_next) AS n(id)
  WHERE o.id = n.id AND o.status IS NOT DISTINCT FROM 'blocked';
END
$fn$;

-- Step 43: sql
CREATE OR REPLACE FUNCTION "auth"."hook_complete"(p_ids int8[], p_attempts int4[],
  p_order_keys text[], p_names text[], p_lease_ms int8, p_worker text)
RETURNS TABLE (outcome text, id int8, name text, key text, payload jsonb, attempts int4, last_error text, order_key text)
LANGUAGE plpgsql SET enable_seqscan = off SET enable_sort = off SET jit = off
SET fragment.hook_hand_off = 'on' AS $fn$
#variable_conflict use_column
DECLARE
  v_keys text[];
  v_locked text[];
  v_done int8[];
  v_finished text[];
  v_next int8[];
  v_held jsonb;
BEGIN
  v_held := jsonb_object(p_ids::text[], p_attempts::text[]);
  SELECT array_agg(DISTINCT k) INTO v_keys FROM unnest(p_order_keys) AS k WHERE k IS NOT NULL;
  IF v_keys IS NULL THEN
    RETURN QUERY UPDATE "auth"."hook_occurrences" AS o
      SET status = 'done', leased_by = NULL, updated_at = clock_timestamp(),
          finished_at = clock_timestamp()
      WHERE o.id = ANY(p_ids) AND o.status IS NOT DISTINCT FROM 'running'
        AND o.attempts = (v_held ->> o.id::text)::int4
      RETURNING 'done'::text, o.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4, NULL::text,
        NULL::text;
    RETURN;
  END IF;
  IF cardinality(v_keys) = 1 THEN
    PERFORM pg_advisory_xact_lock(hashtext('auth'), hashtext(v_keys[1]));
    v_locked := v_keys;
  ELSE
    SELECT COALESCE(array_agg(k), '{}') INTO v_locked FROM unnest(v_keys) AS k
    WHERE pg_try_advisory_xact_lock(hashtext('auth'), hashtext(k));
  END IF;
  WITH finished AS (UPDATE "auth"."hook_occurrences" AS o
      SET status = 'done', leased_by = NULL, updated_at = clock_timestamp(),
          finished_at = clock_timestamp()
      WHERE o.id = ANY(p_ids) AND o.status IS NOT DISTINCT FROM 'running'
        AND o.attempts = (v_held ->> o.id::text)::int4
        AND (cardinality(v_locked) = cardinality(v_keys) OR o.order_key IS NULL
          OR o.order_key = ANY(v_locked))
    RETURNING o.id, o.order_key)
  SELECT array_agg(f.id), array_agg(f.order_key) FILTER (WHERE f.order_key IS NOT NULL)
  INTO v_done, v_finished FROM finished AS f;
  RETURN QUERY SELECT 'done'::text, d.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4,
    NULL::text, NULL::text
  FROM unnest(v_done) AS d(id);
  IF cardinality(v_locked) < cardinality(v_keys) THEN
    RETURN QUERY SELECT 'late'::text, held.id, NULL::text, NULL::text, NULL::jsonb, NULL::int4,
      NULL::text, NULL::text
    FROM unnest(p_ids, p_order_keys) AS held(id, order_key)
    WHERE held.order_key IS NOT NULL AND NOT (held.order_key = ANY(v_locked));
  END IF;
  IF v_finished IS NULL THEN
    RETURN;
  END IF;
  -- Each key's oldest blocked occurrence: a walk of the ordering index from the key's start,
  -- stopped at the first blocked one (the key compared by a range: see withHookHandOffLookup).
  SELECT array_agg(n.id) INTO v_next FROM unnest(v_finished) AS f(k)
  CROSS JOIN LATERAL (SELECT h.id FROM "auth"."hook_occurrences" AS h
    WHERE h.order_key >= f.k AND h.order_key <= f.k
      AND h.status IN ('pending', 'running', 'blocked') AND h.status = 'blocked'
    ORDER BY h.order_key, h.id LIMIT 1) AS n;
  IF v_next IS NULL THEN
    RETURN;
  END IF;
  IF cardinality(p_names) > 0 THEN
    RETURN QUERY UPDATE "auth"."hook_occurrences" AS o
      SET status = 'running', attempts = o.attempts + 1, due_at = clock_timestamp() + p_lease_ms * interval '1 millisecond',
        leased_by = p_worker, updated_at = clock_timestamp()
      WHERE o.id = ANY(v_next) AND o.status IS NOT DISTINCT FROM 'blocked'
        AND o.due_at <= clock_timestamp() AND (o.name = ANY(p_names)) IS TRUE
      RETURNING 'claimed'::text, o.id, o.name, o.key, o.payload, o.attempts, o.last_error,
        o.order_key;
  END IF;
  UPDATE "auth"."hook_occurrences" AS o SET status = 'pending', updated_at = clock_timestamp()
  WHERE o.id = ANY(v_next) AND o.status IS NOT DISTINCT FROM 'blocked';
END
$fn$;

-- Step 44: createTable "email_link_tokens"
CREATE TABLE "auth"."email_link_tokens" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "email" text NOT NULL,
  "user_id" uuid,
  "token_hash" text NOT NULL,
  "redirect_to" text,
  "expires_at" timestamptz NOT NULL,
  "used_at" timestamptz,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "email_link_tokens_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "email_link_tokens_token_hash_key" UNIQUE ("token_hash"),
  CONSTRAINT "email_link_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "auth"."users" ("id") ON DELETE CASCADE
);

-- Step 45: addIndex "email_link_tokens_email_idx" on "email_link_tokens"
CREATE INDEX "email_link_tokens_email_idx" ON "auth"."email_link_tokens" ("email");

-- Step 46: addIndex "email_link_tokens_expires_idx" on "email_link_tokens"
CREATE INDEX "email_link_tokens_expires_idx" ON "auth"."email_link_tokens" ("expires_at");

-- Step 47: createTable "identities"
CREATE TABLE "auth"."identities" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "user_id" uuid NOT NULL,
  "provider" text NOT NULL,
  "subject" text NOT NULL,
  "email" text,
  "email_verified" boolean NOT NULL DEFAULT false,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "identities_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "identities_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "auth"."users" ("id") ON DELETE CASCADE
);

-- Step 48: addIndex "identities_provider_subject_key" on "identities"
CREATE UNIQUE INDEX "identities_provider_subject_key" ON "auth"."identities" ("provider", "subject");

-- Step 49: addIndex "identities_user_idx" on "identities"
CREATE INDEX "identities_user_idx" ON "auth"."identities" ("user_id");

-- Step 50: createTable "oauth_states"
CREATE TABLE "auth"."oauth_states" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "state_hash" text NOT NULL,
  "verifier_hash" text NOT NULL,
  "provider" text NOT NULL,
  "nonce" text,
  "redirect_uri" text NOT NULL,
  "redirect_to" text NOT NULL,
  "purpose" text NOT NULL,
  "user_id" uuid,
  "session_id" uuid,
  "expires_at" timestamptz NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "oauth_states_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "oauth_states_state_hash_key" UNIQUE ("state_hash"),
  CONSTRAINT "oauth_states_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "auth"."users" ("id") ON DELETE CASCADE,
  CONSTRAINT "oauth_states_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "auth"."sessions" ("id") ON DELETE CASCADE
);

-- Step 51: addIndex "oauth_states_expires_idx" on "oauth_states"
CREATE INDEX "oauth_states_expires_idx" ON "auth"."oauth_states" ("expires_at");

-- Step 52: addColumn "users"."two_factor_enabled"
ALTER TABLE "auth"."users" ADD COLUMN "two_factor_enabled" boolean NOT NULL DEFAULT false;

-- Step 53: createTable "totp_factors"
CREATE TABLE "auth"."totp_factors" (
  "user_id" uuid NOT NULL,
  "secret_ciphertext" text NOT NULL,
  "enabled_at" timestamptz,
  "last_used_step" bigint,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "totp_factors_pkey" PRIMARY KEY ("user_id"),
  CONSTRAINT "totp_factors_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "auth"."users" ("id") ON DELETE CASCADE
);

-- Step 54: createTable "recovery_codes"
CREATE TABLE "auth"."recovery_codes" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "user_id" uuid NOT NULL,
  "code_hash" text NOT NULL,
  "used_at" timestamptz,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "recovery_codes_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "recovery_codes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "auth"."users" ("id") ON DELETE CASCADE
);

-- Step 55: addIndex "recovery_codes_user_code_key" on "recovery_codes"
CREATE UNIQUE INDEX "recovery_codes_user_code_key" ON "auth"."recovery_codes" ("user_id", "code_hash");

-- Step 56: createTable "two_factor_challenges"
CREATE TABLE "auth"."two_factor_challenges" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "token_hash" text NOT NULL,
  "user_id" uuid NOT NULL,
  "sign_in_method" text NOT NULL,
  "active_organization_id" uuid,
  "user_agent" text,
  "redirect_to" text,
  "attempts" integer NOT NULL DEFAULT 0,
  "expires_at" timestamptz NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "two_factor_challenges_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "two_factor_challenges_token_hash_key" UNIQUE ("token_hash"),
  CONSTRAINT "two_factor_challenges_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "auth"."users" ("id") ON DELETE CASCADE
);

-- Step 57: addIndex "two_factor_challenges_expires_idx" on "two_factor_challenges"
CREATE INDEX "two_factor_challenges_expires_idx" ON "auth"."two_factor_challenges" ("expires_at");

-- Step 58: createTable "passkeys"
CREATE TABLE "auth"."passkeys" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "user_id" uuid NOT NULL,
  "credential_id" text NOT NULL,
  "public_key" bytea NOT NULL,
  "counter" bigint NOT NULL DEFAULT 0,
  "transports" text,
  "device_type" text NOT NULL,
  "backed_up" boolean NOT NULL DEFAULT false,
  "name" text NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "last_used_at" timestamptz,
  CONSTRAINT "passkeys_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "passkeys_credential_id_key" UNIQUE ("credential_id"),
  CONSTRAINT "passkeys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "auth"."users" ("id") ON DELETE CASCADE
);

-- Step 59: addIndex "passkeys_user_idx" on "passkeys"
CREATE INDEX "passkeys_user_idx" ON "auth"."passkeys" ("user_id");

-- Step 60: createTable "webauthn_challenges"
CREATE TABLE "auth"."webauthn_challenges" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "challenge_hash" text NOT NULL,
  "purpose" text NOT NULL,
  "user_id" uuid,
  "two_factor_challenge_id" uuid,
  "expires_at" timestamptz NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "webauthn_challenges_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "webauthn_challenges_challenge_hash_key" UNIQUE ("challenge_hash"),
  CONSTRAINT "webauthn_challenges_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "auth"."users" ("id") ON DELETE CASCADE,
  CONSTRAINT "webauthn_challenges_two_factor_challenge_id_fkey" FOREIGN KEY ("two_factor_challenge_id") REFERENCES "auth"."two_factor_challenges" ("id") ON DELETE CASCADE
);

-- Step 61: addIndex "webauthn_challenges_expires_idx" on "webauthn_challenges"
CREATE INDEX "webauthn_challenges_expires_idx" ON "auth"."webauthn_challenges" ("expires_at");

-- Step 62: addColumn "organizations"."require_two_factor"
ALTER TABLE "auth"."organizations" ADD COLUMN "require_two_factor" boolean NOT NULL DEFAULT false;

-- Step 63: addIndex "hook_occurrences_keyed_idx" on "hook_occurrences"
CREATE UNIQUE INDEX "hook_occurrences_keyed_idx" ON "auth"."hook_occurrences" ("name", "key") WHERE key IS NOT NULL;

-- Step 64: dropIndex "hook_occurrences_name_key_idx"
DROP INDEX "auth"."hook_occurrences_name_key_idx";

-- Step 65: sql
CREATE OR REPLACE FUNCTION "auth"."hook_enqueue_ordered"(p_name text, p_keys text[],
  p_payloads jsonb[], p_due_at timestamptz, p_order_keys text[]) RETURNS int8
LANGUAGE plpgsql SET enable_seqscan = off SET jit = off SET fragment.hook_hand_off = 'on' AS $fn$
DECLARE
  v_busy text[];
  v_count int8;
BEGIN
  IF cardinality(p_keys) IS NULL THEN
    RETURN 0;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('auth'), l.id)
  FROM (SELECT DISTINCT hashtext(k) AS id FROM unnest(p_order_keys) AS k WHERE k IS NOT NULL) AS l
  ORDER BY l.id;
  SELECT COALESCE(array_agg(b.k), '{}') INTO v_busy
  FROM (SELECT DISTINCT k FROM unnest(p_order_keys) AS k WHERE k IS NOT NULL) AS b(k)
  CROSS JOIN LATERAL (SELECT 1 FROM "auth"."hook_occurrences" AS h
    WHERE h.order_key = b.k AND h.status IN ('pending', 'running', 'blocked') LIMIT 1) AS busy;
  WITH inserted AS (
    INSERT INTO "auth"."hook_occurrences" (name, key, payload, due_at, order_key, status)
    SELECT p_name, i.key, i.payload, COALESCE(p_due_at, now()), i.order_key,
      CASE WHEN i.order_key IS NOT NULL AND (i.order_key = ANY(v_busy)
          OR row_number() OVER (PARTITION BY i.order_key ORDER BY i.n) > 1)
        THEN 'blocked' ELSE 'pending' END
    FROM unnest(p_keys, p_payloads, p_order_keys) WITH ORDINALITY AS i(key, payload, order_key, n)
    ORDER BY i.n
    ON CONFLICT (name, key) WHERE key IS NOT NULL DO NOTHING RETURNING 1)
  SELECT count(*) INTO v_count FROM inserted;
  IF v_count < cardinality(p_keys) THEN
    UPDATE "auth"."hook_occurrences" AS o SET status = 'pending', updated_at = clock_timestamp()
    WHERE o.id IN (
      SELECT (SELECT h.id FROM "auth"."hook_occurrences" AS h
              WHERE h.order_key = k.k AND h.status IN ('pending', 'running', 'blocked') AND h.status = 'blocked'
              ORDER BY h.order_key, h.id LIMIT 1)
      FROM (SELECT DISTINCT k FROM unnest(p_order_keys) AS k WHERE k IS NOT NULL) AS k(k)
      WHERE NOT EXISTS (SELECT 1 FROM "auth"."hook_occurrences" AS h
                        WHERE h.order_key = k.k AND h.status IN ('pending', 'running')));
  END IF;
  RETURN v_count;
END
$fn$;

-- Version bookkeeping
INSERT INTO "fragment_internal"."applied_steps" ("namespace", "version", "fingerprint", "description") VALUES
  ('auth', 1, '79c09e44a3e57a15393130c2b309fc6f15127238f02fcc642f1eec5f03cb4cb2', 'createTable "users"'),
  ('auth', 2, '4fc80dce0267fb44a7720ec12bd440161bd86b89d05776d19ef8486dda7f7d36', 'createTable "sessions"'),
  ('auth', 3, 'd2fe35ee55e0b9738ce246c3daa874d57907c44cc7ea5fbf58e9915796542f27', 'addIndex "sessions_user_id_idx" on "sessions"'),
  ('auth', 4, '4f8757de38ae915f3d3d6815c993579833fc82c412e2d538d366fb810bce09e3', 'createTable "organizations"'),
  ('auth', 5, '4a594f678775ffcf14e4356869bf9607c4eb2073d449d92f8dd3607dfe98e5a3', 'createTable "members"'),
  ('auth', 6, 'dd97583a1c2e171eda7ce09e2628ef727ef7d560800d3e05f09ee26660c96335', 'addIndex "members_organization_user_key" on "members"'),
  ('auth', 7, 'f821e2c046981233b9edde8272992f7bb169126628926e3dbb79b525e8fa303e', 'addIndex "members_user_id_idx" on "members"'),
  ('auth', 8, 'd7089e6718bfcd33d64408403a1b3dda6802f21e7049b769265a2076ce3c111d', 'createTable "invitations"'),
  ('auth', 9, 'a88a98592add94b21a7adaa613b9dedb53c7dc0cee816944108087872616f3da', 'addIndex "invitations_pending_email_key" on "invitations"'),
  ('auth', 10, '609bc1958ae5becb7f8c29c72f964936ecc80f0ca8ffde1bf263c2d4f738aa1a', 'addIndex "invitations_email_idx" on "invitations"'),
  ('auth', 11, 'dd1820657e99fb421884a441177a418a978ae8aa7fa3c9e8ff3e48dee6a520c9', 'addIndex "invitations_organization_idx" on "invitations"'),
  ('auth', 12, 'bf6812abb8ca548074dfacc736120f269d92ad8b7d263acefbe81acc87ca81d5', 'addColumn "sessions"."active_organization_id"'),
  ('auth', 13, '035479d48feeb57bb702ce7c45057698c539a2540f8ac506ad8425359796886e', 'createTable "hook_occurrences"'),
  ('auth', 14, '5ea6e7f0aad4327df131b9ea34034ea97302716b301d9dee5003b1174f31ba12', 'addIndex "hook_occurrences_name_key_idx" on "hook_occurrences"'),
  ('auth', 15, 'ba19d479c0a6dd4ac91891b46cc2d5210966eac63699f8b6180294cd89759d86', 'addIndex "hook_occurrences_due_idx" on "hook_occurrences"'),
  ('auth', 16, '4d5707de96048a57a9f712fafdc39293434239eb6c7e73510eecb402be02d1de', 'addIndex "hook_occurrences_status_idx" on "hook_occurrences"'),
  ('auth', 17, 'f57af05c3ad7e386f8c3ac914e594c818e73fd3ffce346dd30db96c0c24fc3f2', 'addIndex "members_organization_page_idx" on "members"'),
  ('auth', 18, '3eedab49bfbfedf14b07ded518047294341c439ff2152b48718bbae36137c141', 'addColumn "users"."email_verified_at"'),
  ('auth', 19, 'a7f2110c082fa6e5a2e1403033ddb6ef8d1bbb630537cdb693028b2dd15c9347', 'createTable "email_verifications"'),
  ('auth', 20, 'fc15f3aafdfa916e313b0c51d3f3ee281250764b1c05fa893530dc2cc2fa896a', 'addIndex "email_verifications_user_id_idx" on "email_verifications"'),
  ('auth', 21, '517d14d87263b65bd1a9a241d7f72e54e3544da1a967040a543ab3b7e3f067e2', 'renameColumn "invitations"."token" to "token_hash"'),
  ('auth', 22, '5d6497c124b713dafb556554fcc14999681e0462964e24be82f8e8809cf10862', 'sql'),
  ('auth', 23, 'fc93bedaa9a4831a5320f59cca74fbe9d8b4d0adc1a731989c5a358ddeb8517a', 'createTable "rate_limits"'),
  ('auth', 24, '2919521254462900a6f1015a1b8e24a4289c9068018e419229d4cf56f0e300b2', 'addIndex "rate_limits_window_idx" on "rate_limits"'),
  ('auth', 25, '0e1b4f8d947148345e3d4dfaa154a1d305d81140c7fb1fb8f1b43e6fed3dd829', 'addColumn "hook_occurrences"."errors"'),
  ('auth', 26, '5b9c05d840b6d96bf0511180d054e4429af05ac4e35062ebd471a9e357731355', 'addColumn "hook_occurrences"."order_key"'),
  ('auth', 27, 'c3aeb31581ac988161ab15a7341ba70e3bf599dfc7db05c638185bee094e42af', 'addIndex "hook_occurrences_order_key_idx" on "hook_occurrences"'),
  ('auth', 28, '77bc182623fbf04429ff6e970dd1152459f54282155dfd9e4b8d2024938e95d4', 'sql'),
  ('auth', 29, '7b638c2c6bf7e82305168bb783ef91a32ea257a872e0439e5869ea8f7f62ce66', 'sql'),
  ('auth', 30, '51fe89300af2455f1835119f37ee534b9ae057314a682632dde4db96ae683e38', 'addColumn "sessions"."last_used_at"'),
  ('auth', 31, '6a4d552878e167ae3bc31f9c3387f2ba1dbcd94319fa8e549327d4ebd92a38f8', 'addColumn "sessions"."user_agent"'),
  ('auth', 32, 'b3b5ba6948a376dde814bb1502594b94c3ed9674e57c4a132057e4b4c3e648b3', 'addColumn "users"."deleted_at"'),
  ('auth', 33, '333d0d1acb036a299c0dccdbb1a0f0afef3e660ba8ff2c28d97553c2fe31df2e', 'createTable "account_tokens"'),
  ('auth', 34, 'f4cef41c24483ac8391560970ebf2d679048d910c0f034ead44a022d844ad6a0', 'addIndex "account_tokens_user_purpose_idx" on "account_tokens"'),
  ('auth', 35, '97d8ea117a4fdf7b94916a044b758f0fb3d031e1354925ba3770a5f8ba83525b', 'createTable "telegram_accounts"'),
  ('auth', 36, '7ab13a8a1bc76d59b49e484d5b3bbac239084a785b290d129bf459cdb8cf9e98', 'createTable "telegram_link_tokens"'),
  ('auth', 37, '3c40c956f3eb2ff2ae5af423bddd08e25b276fca4d084241b80b78e546dcf3f3', 'addIndex "telegram_link_tokens_user_idx" on "telegram_link_tokens"'),
  ('auth', 38, '2a857da0e47451dcb52988c1cd9d7efa09eb41bf0be22b496c1fe23b3bd7e0c7', 'sql'),
  ('auth', 39, '1f32fc59209641b81b57425fc843c149122f9dee9de623d3840262391e7402dc', 'createTable "organization_audit_log"'),
  ('auth', 40, '270c3ee1099bfc336c0684917df182b68c2b07d48d354f4f18beead176c52cae', 'addIndex "organization_audit_log_page_idx" on "organization_audit_log"'),
  ('auth', 41, '5bbce33b21f27c87e5a651ff53a48f994653bba873357ce6a3821b9e00919879', 'addIndex "organization_audit_log_created_idx" on "organization_audit_log"'),
  ('auth', 42, '41c84c566f9913c3e314a91b6f19dce12d873ab39fc82ab5a96ddd02c7651fae', 'sql'),
  ('auth', 43, '8692826efc0ea0358d1c503193424eb7cd1c3060422f5dc879174f03b7d80c5e', 'sql'),
  ('auth', 44, '6cc2825cb6c098064494f38b33ed7b70ced58e40ff47397d1775b72d79041d79', 'createTable "email_link_tokens"'),
  ('auth', 45, '79042a6282a75e21c09119afee7268bf7adfc3e4050f4d7b5c11a3780c48577e', 'addIndex "email_link_tokens_email_idx" on "email_link_tokens"'),
  ('auth', 46, '1611d46097e83a52e261a4cc00f979741449eefab043b2e1aaac4a8e16998fb0', 'addIndex "email_link_tokens_expires_idx" on "email_link_tokens"'),
  ('auth', 47, '56eadcb9124650f424a38136074d4cdcaa354e9e9a39c80526bb5fcd719f0b0b', 'createTable "identities"'),
  ('auth', 48, '8d897e5357f9eacb987b9297b33922cd7c0931968f9e595574adb5fd69c804a1', 'addIndex "identities_provider_subject_key" on "identities"'),
  ('auth', 49, '8fa494c9b1e4584b38039dd8bf04afba161d49d95e2c9f269df4db36cbd4a37f', 'addIndex "identities_user_idx" on "identities"'),
  ('auth', 50, '2fbc75b42ffef4d2e57f2110b930c81643d64a3cb97e9dfcdbcfaa03868271b4', 'createTable "oauth_states"'),
  ('auth', 51, 'a4330cdc0f4dd4c15ab31d31bfec2ebe65ff2e4b5cf58a7419df10466aa7c46c', 'addIndex "oauth_states_expires_idx" on "oauth_states"'),
  ('auth', 52, 'edb5313d5182c814a9aa5ace4b4f97e7c5317cc87c9a7188486904a432bf2b4e', 'addColumn "users"."two_factor_enabled"'),
  ('auth', 53, '87abdb101a49cf612ec0209416b23138f5bc18708dc13f55d1390e435c1b71b8', 'createTable "totp_factors"'),
  ('auth', 54, '605c037d80fa1d8de60662094711d01e90cbb089aaaa09e2b7e8996c7501fc88', 'createTable "recovery_codes"'),
  ('auth', 55, '23eea4d4cd792eb9510ed54d210fafa7f2d29e701aad78f931cd452b220f74e3', 'addIndex "recovery_codes_user_code_key" on "recovery_codes"'),
  ('auth', 56, 'a22bed2e0a1e3ebb790e784834e100b7e56e5e3447a59959a678b758a3838a50', 'createTable "two_factor_challenges"'),
  ('auth', 57, 'df69d4e2bceca5c4c62c40b64fffcfb4dd823eb926e96d12e0684ff97c562cb5', 'addIndex "two_factor_challenges_expires_idx" on "two_factor_challenges"'),
  ('auth', 58, '8730044ea4a729c5d91ea45da4aa011e6cd64d64a90404c463b2c826e170aeac', 'createTable "passkeys"'),
  ('auth', 59, 'f1515ea6b2eccf92484e6c37bd4e50deae71640fdadf7625897c3f561db2f409', 'addIndex "passkeys_user_idx" on "passkeys"'),
  ('auth', 60, 'fe4c6521f0cc69c980a3e9c4923cd4582db8341bc911a4d63ac3cefc565a70dd', 'createTable "webauthn_challenges"'),
  ('auth', 61, '963045968f236a9693b0810220ab704de5b98191ff716f2403a5c820a070c0ab', 'addIndex "webauthn_challenges_expires_idx" on "webauthn_challenges"'),
  ('auth', 62, '8ffeee29e01910cd5b2422dd72811a0404ad5759e8c2e2a8397573be7315df67', 'addColumn "organizations"."require_two_factor"'),
  ('auth', 63, 'eefdf2c0d4fd5fbe3f5909153f4677d51f7d6dc7e967b72055bd63f272e7fc34', 'addIndex "hook_occurrences_keyed_idx" on "hook_occurrences"'),
  ('auth', 64, 'c704f35c6c3a2090b9e02a109cd06123cfc706e0d12cf2578427d762c6f07560', 'dropIndex "hook_occurrences_name_key_idx"'),
  ('auth', 65, 'd650fd222855db40f1ac080de5c8177a3d33c58869c9e3e3e45bf1ffa925f7be', 'sql')
ON CONFLICT ("namespace", "version") DO UPDATE SET "fingerprint" = EXCLUDED."fingerprint", "description" = EXCLUDED."description", "applied_at" = now();

INSERT INTO "fragment_internal"."schema_versions" ("namespace", "schema_name", "version") VALUES ('auth', 'auth', 65)
ON CONFLICT ("namespace") DO UPDATE SET "version" = EXCLUDED."version", "schema_name" = EXCLUDED."schema_name", "updated_at" = now();

COMMIT;
