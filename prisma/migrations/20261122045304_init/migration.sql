-- CreateEnum
CREATE TYPE "mesh_visibility" AS ENUM ('private', 'unlisted', 'public');

-- CreateEnum
CREATE TYPE "mesh_transport" AS ENUM ('relay', 'direct');

-- CreateEnum
CREATE TYPE "mesh_tier" AS ENUM ('free', 'pro', 'enterprise');

-- CreateEnum
CREATE TYPE "member_role" AS ENUM ('owner', 'admin', 'member', 'observer');

-- CreateEnum
CREATE TYPE "audit_event_type" AS ENUM ('mesh_created', 'mesh_archived', 'invite_created', 'invite_revoked', 'member_joined', 'member_left', 'message_sent', 'status_changed');

-- CreateEnum
CREATE TYPE "message_priority" AS ENUM ('low', 'normal', 'high', 'urgent');

-- CreateEnum
CREATE TYPE "api_scope" AS ENUM ('jobs:read', 'jobs:write', 'admin');

-- CreateEnum
CREATE TYPE "job_status" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "batch_status" AS ENUM ('queued', 'running', 'completed', 'cancelled');

-- CreateEnum
CREATE TYPE "review_sort" AS ENUM ('newest', 'most_relevant', 'highest_rating', 'lowest_rating');

-- CreateEnum
CREATE TYPE "scrape_error_class" AS ENUM ('target_not_found', 'blocked', 'rate_limited', 'layout_changed', 'timeout', 'network', 'invalid_target', 'cancelled', 'internal');

-- CreateEnum
CREATE TYPE "callback_state" AS ENUM ('none', 'pending', 'delivered', 'failed');

-- CreateEnum
CREATE TYPE "callback_kind" AS ENUM ('job.completed', 'job.failed', 'batch.completed');

-- CreateEnum
CREATE TYPE "execution_status" AS ENUM ('queued', 'running', 'succeeded', 'failed');

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "name" TEXT,
    "email" TEXT,
    "email_verified" TIMESTAMP(3),
    "image" TEXT,
    "password_hash" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_account_id" TEXT NOT NULL,
    "refresh_token" TEXT,
    "access_token" TEXT,
    "expires_at" INTEGER,
    "token_type" TEXT,
    "scope" TEXT,
    "id_token" TEXT,
    "session_state" TEXT,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" TEXT NOT NULL,
    "session_token" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "expires" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "user_agent" TEXT,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "verification_tokens" (
    "identifier" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expires" TIMESTAMP(3) NOT NULL
);

-- CreateTable
CREATE TABLE "meshes" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "owner_user_id" TEXT NOT NULL,
    "owner_pubkey" TEXT NOT NULL,
    "owner_secret_key_enc" TEXT NOT NULL,
    "root_key_enc" TEXT NOT NULL,
    "visibility" "mesh_visibility" NOT NULL DEFAULT 'private',
    "transport" "mesh_transport" NOT NULL DEFAULT 'relay',
    "tier" "mesh_tier" NOT NULL DEFAULT 'free',
    "archived_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "meshes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "members" (
    "id" UUID NOT NULL,
    "mesh_id" UUID NOT NULL,
    "user_id" TEXT,
    "peer_pubkey" TEXT,
    "display_name" TEXT NOT NULL,
    "role" "member_role" NOT NULL DEFAULT 'member',
    "invite_id" UUID,
    "joined_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "members_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invites" (
    "id" UUID NOT NULL,
    "token" TEXT NOT NULL,
    "mesh_id" UUID NOT NULL,
    "created_by_user_id" TEXT NOT NULL,
    "role" "member_role" NOT NULL DEFAULT 'member',
    "expires_at" TIMESTAMP(3) NOT NULL,
    "max_uses" INTEGER,
    "used_count" INTEGER NOT NULL DEFAULT 0,
    "revoked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "presences" (
    "id" UUID NOT NULL,
    "mesh_id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "node_id" TEXT NOT NULL,
    "connection_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'online',
    "status_text" TEXT,
    "connected_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disconnected_at" TIMESTAMP(3),

    CONSTRAINT "presences_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "message_envelopes" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "mesh_id" UUID NOT NULL,
    "sender_member_id" UUID NOT NULL,
    "target_spec" JSONB NOT NULL,
    "priority" "message_priority" NOT NULL DEFAULT 'normal',
    "byte_size" INTEGER NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "message_envelopes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "message_recipients" (
    "envelope_id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "seq" BIGINT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_delivered_at" TIMESTAMP(3),

    CONSTRAINT "message_recipients_pkey" PRIMARY KEY ("envelope_id","member_id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "mesh_id" UUID NOT NULL,
    "event_type" "audit_event_type" NOT NULL,
    "actor_user_id" TEXT,
    "actor_member_id" UUID,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "scopes" "api_scope"[],
    "rate_limit_per_minute" INTEGER,
    "callback_secret_enc" TEXT,
    "created_by_user_id" TEXT,
    "last_used_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response_status" INTEGER,
    "response_body" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "batches" (
    "id" UUID NOT NULL,
    "api_key_id" UUID,
    "name" TEXT,
    "requester_client_id" TEXT NOT NULL,
    "requester_source" TEXT,
    "requester_purpose" TEXT,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "status" "batch_status" NOT NULL DEFAULT 'queued',
    "total_jobs" INTEGER NOT NULL,
    "queued_jobs" INTEGER NOT NULL DEFAULT 0,
    "running_jobs" INTEGER NOT NULL DEFAULT 0,
    "succeeded_jobs" INTEGER NOT NULL DEFAULT 0,
    "failed_jobs" INTEGER NOT NULL DEFAULT 0,
    "cancelled_jobs" INTEGER NOT NULL DEFAULT 0,
    "callback_url" TEXT,
    "callback_state" "callback_state" NOT NULL DEFAULT 'none',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "completed_at" TIMESTAMP(3),
    "cancelled_at" TIMESTAMP(3),

    CONSTRAINT "batches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "jobs" (
    "id" UUID NOT NULL,
    "api_key_id" UUID,
    "requester_client_id" TEXT NOT NULL,
    "requester_source" TEXT,
    "requester_purpose" TEXT,
    "batch_id" UUID,
    "batch_index" INTEGER,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "callback_url" TEXT,
    "callback_state" "callback_state" NOT NULL DEFAULT 'none',
    "callback_attempts" INTEGER NOT NULL DEFAULT 0,
    "callback_last_status" INTEGER,
    "callback_last_error" TEXT,
    "callback_delivered_at" TIMESTAMP(3),
    "platform" TEXT NOT NULL DEFAULT 'platform',
    "place_url" TEXT,
    "place_id" TEXT,
    "review_limit" INTEGER NOT NULL DEFAULT 100,
    "sort" "review_sort" NOT NULL DEFAULT 'newest',
    "since_date" TIMESTAMP(3),
    "language" TEXT,
    "requested_version" TEXT,
    "requested_variant" TEXT,
    "scraper_version_id" UUID,
    "scraper_version" TEXT,
    "scraper_variant" TEXT,
    "status" "job_status" NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "review_count" INTEGER NOT NULL DEFAULT 0,
    "error_class" "scrape_error_class",
    "error_message" TEXT,
    "queued_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),
    "duration_ms" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_events" (
    "id" BIGSERIAL NOT NULL,
    "job_id" UUID NOT NULL,
    "status" "job_status" NOT NULL,
    "detail" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scraper_versions" (
    "id" UUID NOT NULL,
    "platform" TEXT NOT NULL DEFAULT 'platform',
    "version" TEXT NOT NULL,
    "variant" TEXT NOT NULL DEFAULT 'default',
    "implementation" TEXT NOT NULL,
    "description" TEXT,
    "config" JSONB NOT NULL DEFAULT '{}',
    "traffic_percent" INTEGER NOT NULL DEFAULT 0,
    "deprecated" BOOLEAN NOT NULL DEFAULT false,
    "deprecated_at" TIMESTAMP(3),
    "promoted_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "scraper_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "callback_deliveries" (
    "id" UUID NOT NULL,
    "webhook_id" TEXT NOT NULL,
    "kind" "callback_kind" NOT NULL,
    "job_id" UUID,
    "batch_id" UUID,
    "url" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "state" "callback_state" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3),
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "delivered_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "callback_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "callback_attempts" (
    "id" BIGSERIAL NOT NULL,
    "delivery_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "duration_ms" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "callback_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reviews" (
    "id" UUID NOT NULL,
    "platform" TEXT NOT NULL,
    "place_key" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "author" TEXT,
    "rating" INTEGER,
    "text" TEXT,
    "language" TEXT,
    "published_at" TIMESTAMP(3),
    "owner_reply" TEXT,
    "collected_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reviews_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_reviews" (
    "job_id" UUID NOT NULL,
    "review_id" UUID NOT NULL,

    CONSTRAINT "job_reviews_pkey" PRIMARY KEY ("job_id","review_id")
);

-- CreateTable
CREATE TABLE "pipelines" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "pipelines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pipeline_executions" (
    "id" UUID NOT NULL,
    "pipeline_id" TEXT NOT NULL,
    "pipeline_version" TEXT NOT NULL,
    "status" "execution_status" NOT NULL DEFAULT 'queued',
    "input" JSONB NOT NULL,
    "stage_metrics" JSONB NOT NULL DEFAULT '{}',
    "result" JSONB,
    "synthesis" JSONB,
    "current_stage" TEXT,
    "failed_stage" TEXT,
    "error" TEXT,
    "total_duration_ms" INTEGER,
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "retry_of_id" UUID,
    "triggered_by_user_id" TEXT,
    "triggered_by_api_key_id" UUID,
    "queued_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pipeline_executions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "users_created_at_idx" ON "users"("created_at");

-- CreateIndex
CREATE INDEX "accounts_user_id_idx" ON "accounts"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_provider_provider_account_id_key" ON "accounts"("provider", "provider_account_id");

-- CreateIndex
CREATE UNIQUE INDEX "sessions_session_token_key" ON "sessions"("session_token");

-- CreateIndex
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

-- CreateIndex
CREATE INDEX "sessions_expires_idx" ON "sessions"("expires");

-- CreateIndex
CREATE UNIQUE INDEX "verification_tokens_identifier_token_key" ON "verification_tokens"("identifier", "token");

-- CreateIndex
CREATE UNIQUE INDEX "meshes_slug_key" ON "meshes"("slug");

-- CreateIndex
CREATE INDEX "meshes_owner_user_id_created_at_idx" ON "meshes"("owner_user_id", "created_at");

-- CreateIndex
CREATE INDEX "meshes_created_at_idx" ON "meshes"("created_at");

-- CreateIndex
CREATE INDEX "meshes_name_idx" ON "meshes"("name");

-- CreateIndex
CREATE INDEX "meshes_archived_at_idx" ON "meshes"("archived_at");

-- CreateIndex
CREATE INDEX "meshes_visibility_transport_tier_idx" ON "meshes"("visibility", "transport", "tier");

-- CreateIndex
CREATE INDEX "members_user_id_revoked_at_idx" ON "members"("user_id", "revoked_at");

-- CreateIndex
CREATE INDEX "members_mesh_id_revoked_at_idx" ON "members"("mesh_id", "revoked_at");

-- CreateIndex
CREATE UNIQUE INDEX "members_mesh_id_user_id_key" ON "members"("mesh_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "members_mesh_id_peer_pubkey_key" ON "members"("mesh_id", "peer_pubkey");

-- CreateIndex
CREATE UNIQUE INDEX "invites_token_key" ON "invites"("token");

-- CreateIndex
CREATE INDEX "invites_mesh_id_created_at_idx" ON "invites"("mesh_id", "created_at");

-- CreateIndex
CREATE INDEX "invites_created_by_user_id_created_at_idx" ON "invites"("created_by_user_id", "created_at");

-- CreateIndex
CREATE INDEX "invites_expires_at_idx" ON "invites"("expires_at");

-- CreateIndex
CREATE INDEX "invites_revoked_at_idx" ON "invites"("revoked_at");

-- CreateIndex
CREATE INDEX "presences_mesh_id_disconnected_at_idx" ON "presences"("mesh_id", "disconnected_at");

-- CreateIndex
CREATE INDEX "presences_member_id_disconnected_at_idx" ON "presences"("member_id", "disconnected_at");

-- CreateIndex
CREATE INDEX "presences_disconnected_at_idx" ON "presences"("disconnected_at");

-- CreateIndex
CREATE INDEX "presences_connected_at_idx" ON "presences"("connected_at");

-- CreateIndex
CREATE UNIQUE INDEX "presences_connection_id_key" ON "presences"("connection_id");

-- CreateIndex
CREATE UNIQUE INDEX "message_envelopes_seq_key" ON "message_envelopes"("seq");

-- CreateIndex
CREATE INDEX "message_envelopes_mesh_id_created_at_idx" ON "message_envelopes"("mesh_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "message_envelopes_expires_at_idx" ON "message_envelopes"("expires_at");

-- CreateIndex
CREATE INDEX "message_envelopes_delivered_at_idx" ON "message_envelopes"("delivered_at");

-- CreateIndex
CREATE INDEX "message_recipients_member_id_seq_idx" ON "message_recipients"("member_id", "seq");

-- CreateIndex
CREATE INDEX "audit_events_mesh_id_created_at_idx" ON "audit_events"("mesh_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "audit_events_event_type_created_at_idx" ON "audit_events"("event_type", "created_at");

-- CreateIndex
CREATE INDEX "audit_events_created_at_idx" ON "audit_events"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys"("prefix");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_created_at_idx" ON "api_keys"("created_at");

-- CreateIndex
CREATE INDEX "api_keys_revoked_at_idx" ON "api_keys"("revoked_at");

-- CreateIndex
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "idempotency_keys_api_key_id_key_key" ON "idempotency_keys"("api_key_id", "key");

-- CreateIndex
CREATE INDEX "batches_api_key_id_created_at_idx" ON "batches"("api_key_id", "created_at");

-- CreateIndex
CREATE INDEX "batches_status_created_at_idx" ON "batches"("status", "created_at");

-- CreateIndex
CREATE INDEX "batches_requester_client_id_created_at_idx" ON "batches"("requester_client_id", "created_at");

-- CreateIndex
CREATE INDEX "batches_created_at_idx" ON "batches"("created_at");

-- CreateIndex
CREATE INDEX "jobs_status_priority_created_at_idx" ON "jobs"("status", "priority" DESC, "created_at");

-- CreateIndex
CREATE INDEX "jobs_batch_id_status_idx" ON "jobs"("batch_id", "status");

-- CreateIndex
CREATE INDEX "jobs_api_key_id_created_at_idx" ON "jobs"("api_key_id", "created_at");

-- CreateIndex
CREATE INDEX "jobs_requester_client_id_created_at_idx" ON "jobs"("requester_client_id", "created_at");

-- CreateIndex
CREATE INDEX "jobs_scraper_version_id_status_idx" ON "jobs"("scraper_version_id", "status");

-- CreateIndex
CREATE INDEX "jobs_error_class_created_at_idx" ON "jobs"("error_class", "created_at");

-- CreateIndex
CREATE INDEX "jobs_created_at_idx" ON "jobs"("created_at");

-- CreateIndex
CREATE INDEX "job_events_job_id_created_at_idx" ON "job_events"("job_id", "created_at");

-- CreateIndex
CREATE INDEX "scraper_versions_platform_deprecated_idx" ON "scraper_versions"("platform", "deprecated");

-- CreateIndex
CREATE UNIQUE INDEX "scraper_versions_platform_version_variant_key" ON "scraper_versions"("platform", "version", "variant");

-- CreateIndex
CREATE UNIQUE INDEX "callback_deliveries_webhook_id_key" ON "callback_deliveries"("webhook_id");

-- CreateIndex
CREATE INDEX "callback_deliveries_state_next_attempt_at_idx" ON "callback_deliveries"("state", "next_attempt_at");

-- CreateIndex
CREATE INDEX "callback_deliveries_job_id_idx" ON "callback_deliveries"("job_id");

-- CreateIndex
CREATE UNIQUE INDEX "callback_deliveries_batch_id_kind_key" ON "callback_deliveries"("batch_id", "kind");

-- CreateIndex
CREATE INDEX "callback_attempts_delivery_id_attempt_idx" ON "callback_attempts"("delivery_id", "attempt");

-- CreateIndex
CREATE INDEX "reviews_place_key_published_at_idx" ON "reviews"("place_key", "published_at");

-- CreateIndex
CREATE UNIQUE INDEX "reviews_platform_place_key_external_id_key" ON "reviews"("platform", "place_key", "external_id");

-- CreateIndex
CREATE INDEX "job_reviews_review_id_idx" ON "job_reviews"("review_id");

-- CreateIndex
CREATE INDEX "pipeline_executions_pipeline_id_created_at_idx" ON "pipeline_executions"("pipeline_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "pipeline_executions_status_created_at_idx" ON "pipeline_executions"("status", "created_at");

-- AddForeignKey
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "meshes" ADD CONSTRAINT "meshes_owner_user_id_fkey" FOREIGN KEY ("owner_user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "members" ADD CONSTRAINT "members_mesh_id_fkey" FOREIGN KEY ("mesh_id") REFERENCES "meshes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "members" ADD CONSTRAINT "members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "members" ADD CONSTRAINT "members_invite_id_fkey" FOREIGN KEY ("invite_id") REFERENCES "invites"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invites" ADD CONSTRAINT "invites_mesh_id_fkey" FOREIGN KEY ("mesh_id") REFERENCES "meshes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invites" ADD CONSTRAINT "invites_created_by_user_id_fkey" FOREIGN KEY ("created_by_user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "presences" ADD CONSTRAINT "presences_mesh_id_fkey" FOREIGN KEY ("mesh_id") REFERENCES "meshes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "presences" ADD CONSTRAINT "presences_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "message_envelopes" ADD CONSTRAINT "message_envelopes_mesh_id_fkey" FOREIGN KEY ("mesh_id") REFERENCES "meshes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "message_envelopes" ADD CONSTRAINT "message_envelopes_sender_member_id_fkey" FOREIGN KEY ("sender_member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "message_recipients" ADD CONSTRAINT "message_recipients_envelope_id_fkey" FOREIGN KEY ("envelope_id") REFERENCES "message_envelopes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "message_recipients" ADD CONSTRAINT "message_recipients_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_mesh_id_fkey" FOREIGN KEY ("mesh_id") REFERENCES "meshes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_user_id_fkey" FOREIGN KEY ("actor_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_member_id_fkey" FOREIGN KEY ("actor_member_id") REFERENCES "members"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_user_id_fkey" FOREIGN KEY ("created_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "batches" ADD CONSTRAINT "batches_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "batches"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_scraper_version_id_fkey" FOREIGN KEY ("scraper_version_id") REFERENCES "scraper_versions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_events" ADD CONSTRAINT "job_events_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "callback_deliveries" ADD CONSTRAINT "callback_deliveries_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "callback_deliveries" ADD CONSTRAINT "callback_deliveries_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "batches"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "callback_attempts" ADD CONSTRAINT "callback_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "callback_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_reviews" ADD CONSTRAINT "job_reviews_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_reviews" ADD CONSTRAINT "job_reviews_review_id_fkey" FOREIGN KEY ("review_id") REFERENCES "reviews"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pipeline_executions" ADD CONSTRAINT "pipeline_executions_pipeline_id_fkey" FOREIGN KEY ("pipeline_id") REFERENCES "pipelines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pipeline_executions" ADD CONSTRAINT "pipeline_executions_triggered_by_user_id_fkey" FOREIGN KEY ("triggered_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pipeline_executions" ADD CONSTRAINT "pipeline_executions_triggered_by_api_key_id_fkey" FOREIGN KEY ("triggered_by_api_key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;
