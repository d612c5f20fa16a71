-- AlterTable
ALTER TABLE "message_envelopes" ADD COLUMN     "client_msg_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "message_envelopes_sender_member_id_client_msg_id_key" ON "message_envelopes"("sender_member_id", "client_msg_id");
