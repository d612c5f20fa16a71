-- The place's id is a name-based UUID of (platform, origin, place_key): the primary key keeps the rows
-- unique, and as the one unique index it is the conflict target of every concurrent upsert (with the
-- second unique index, a racing insert of a new place could fail on it with 23505).
-- DropIndex
DROP INDEX "places_platform_origin_place_key_key";

-- CreateIndex
CREATE INDEX "places_platform_origin_place_key_idx" ON "places"("platform", "origin", "place_key");
