-- Acks set delivered_at on every envelope. With delivered_at out of every index (nothing filters on
-- it) and room left on each page, that update can be a heap-only tuple update: no new index entries
-- for the envelope's other indexes, and the old version pruned within the page.
-- DropIndex
DROP INDEX "message_envelopes_delivered_at_idx";

ALTER TABLE "message_envelopes" SET (fillfactor = 70);
