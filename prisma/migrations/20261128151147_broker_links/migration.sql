-- CreateTable
CREATE TABLE "broker_nodes" (
    "node_id" TEXT NOT NULL,
    "peer_url" TEXT NOT NULL,
    "seen_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "broker_nodes_pkey" PRIMARY KEY ("node_id")
);

-- CreateTable
CREATE TABLE "broker_link_tickets" (
    "ticket_hash" TEXT NOT NULL,
    "node_id" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "broker_link_tickets_pkey" PRIMARY KEY ("ticket_hash")
);

-- CreateIndex
CREATE INDEX "broker_nodes_seen_at_idx" ON "broker_nodes"("seen_at");

-- CreateIndex
CREATE INDEX "broker_link_tickets_expires_at_idx" ON "broker_link_tickets"("expires_at");
