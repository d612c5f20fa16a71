-- CreateTable
CREATE TABLE "review_bots" (
    "id" UUID NOT NULL,
    "mesh_id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "created_by_user_id" TEXT NOT NULL,
    "sign_secret_key_enc" TEXT NOT NULL,
    "box_secret_key_enc" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_bots_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "review_bots_member_id_key" ON "review_bots"("member_id");

-- CreateIndex
CREATE INDEX "review_bots_mesh_id_idx" ON "review_bots"("mesh_id");

-- AddForeignKey
ALTER TABLE "review_bots" ADD CONSTRAINT "review_bots_mesh_id_fkey" FOREIGN KEY ("mesh_id") REFERENCES "meshes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_bots" ADD CONSTRAINT "review_bots_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;
