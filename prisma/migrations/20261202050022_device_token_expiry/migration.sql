-- Command-line tokens expire (issue 41): 30 days after their last use, never later than 90 days after
-- the login (DEVICE_TOKEN_IDLE_MS, DEVICE_TOKEN_MAX_AGE_MS in src/server/services/devices/device-login.ts).
-- Tokens issued before this migration get the same rule from their own dates: one idle for 30 days, or
-- older than 90 days, is expired at once (its owner runs mesh login again).
ALTER TABLE "device_tokens" ADD COLUMN "expires_at" TIMESTAMP(3);

UPDATE "device_tokens"
SET "expires_at" = LEAST(
  COALESCE("last_used_at", "created_at") + INTERVAL '30 days',
  "created_at" + INTERVAL '90 days'
);

ALTER TABLE "device_tokens" ALTER COLUMN "expires_at" SET NOT NULL;

-- Tokens expired (revoked ones included) long ago are swept as new logins start.
CREATE INDEX "device_tokens_expires_at_idx" ON "device_tokens"("expires_at");
