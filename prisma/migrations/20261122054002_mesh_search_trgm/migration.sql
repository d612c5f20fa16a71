-- Trigram indexes need pg_trgm (shipped with PostgreSQL's contrib modules).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateIndex
CREATE INDEX "meshes_name_trgm_idx" ON "meshes" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "meshes_slug_trgm_idx" ON "meshes" USING GIN ("slug" gin_trgm_ops);
