import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { administratorOf, type ApiKeyActor, type AdministratorActor } from "@/server/services/actor";
import { ctxOf, makeApiKey } from "@/test/pipeline-fixtures";
import { testDb, uid } from "@/test/helpers";
import { listPlaces } from "./places";
import { ZListPlacesInput } from "./places.schema";
import { searchPlaces } from "./search-places";
import { PLACE_SEARCH_LIMIT, ZSearchPlacesInput } from "./search-places.schema";

// The forms' place search (docs/review-engine.md, "Forms"): bounded, by name or platform id, and a key
// without the admin scope finds only the places its own jobs read.
const db = testDb();
afterAll(() => db.$disconnect());

/** A place record named `name`, read by one job of `apiKeyId` (null: an administrator's job). */
async function placeReadBy(apiKeyId: string | null, name: string, platformId = uid("p")) {
  const place = await db.place.create({
    data: {
      id: randomUUID(),
      platform: "platform",
      origin: "http://127.0.0.1:4200",
      placeKey: platformId,
      platformId,
      name,
    },
  });
  await db.job.create({
    data: { apiKeyId, requesterClientId: uid("client"), placeId: platformId, placeName: name, placeRefId: place.id },
  });
  return place;
}

const search = (actor: ApiKeyActor | AdministratorActor, q: string) =>
  searchPlaces(ctxOf(db, actor), ZSearchPlacesInput.parse({ q }));

describe("place search", () => {
  it("finds places by part of the name, case-insensitively, or by the exact platform id", async () => {
    const tag = uid("Osteria");
    const key = await makeApiKey(db, ["jobs:read"]);
    const place = await placeReadBy(key.id, `${tag} del Porto`);
    const found = await search(key.actor as ApiKeyActor, tag.toLowerCase().slice(2));
    expect(found.items.map((p) => p.id)).toEqual([place.id]);
    expect(found.items[0]).toMatchObject({ name: `${tag} del Porto`, platform_id: place.platformId });
    expect((await search(key.actor as ApiKeyActor, place.platformId!)).items.map((p) => p.id)).toEqual([place.id]);
    // A wildcard is a character of the name, not a pattern.
    expect((await search(key.actor as ApiKeyActor, `${tag.slice(0, 4)}%`)).items).toEqual([]);
  });

  it("answers at most PLACE_SEARCH_LIMIT places and refuses a query shorter than 2 characters", async () => {
    const tag = uid("Chain");
    for (let i = 0; i < PLACE_SEARCH_LIMIT + 3; i += 1) await placeReadBy(null, `${tag} ${i}`);
    const admin = administratorOf({ kind: "user", userId: uid("admin"), isAdmin: true });
    expect((await search(admin, tag)).items).toHaveLength(PLACE_SEARCH_LIMIT);
    expect(ZSearchPlacesInput.safeParse({ q: "a" }).success).toBe(false);
    expect(ZSearchPlacesInput.safeParse({ q: tag, limit: PLACE_SEARCH_LIMIT + 1 }).success).toBe(false);
  });

  it("a key without the admin scope finds only the places its own jobs read; an administrator finds all", async () => {
    const tag = uid("Bistro");
    const a = await makeApiKey(db, ["jobs:read"]);
    const b = await makeApiKey(db, ["jobs:read"]);
    const ofA = await placeReadBy(a.id, `${tag} Alpha`);
    const ofB = await placeReadBy(b.id, `${tag} Beta`);
    expect((await search(a.actor as ApiKeyActor, tag)).items.map((p) => p.id)).toEqual([ofA.id]);
    expect((await search(b.actor as ApiKeyActor, tag)).items.map((p) => p.id)).toEqual([ofB.id]);
    // Not even by its exact platform id.
    expect((await search(a.actor as ApiKeyActor, ofB.platformId!)).items).toEqual([]);
    const adminKey = await makeApiKey(db, ["jobs:read", "admin"]);
    expect((await search(adminKey.actor as ApiKeyActor, tag)).items.map((p) => p.id).sort()).toEqual(
      [ofA.id, ofB.id].sort(),
    );
  });

  it("reads % and _ in the places list's search (GET /api/places?q=) as the characters they are", async () => {
    const tag = uid("pct").replace(/[^a-z0-9]/gi, "");
    const key = await makeApiKey(db, ["jobs:read"]);
    const sale = await placeReadBy(key.id, `${tag} 50% off`);
    await placeReadBy(key.id, `${tag} 500 off`);
    await placeReadBy(key.id, `${tag} a_b`);
    await placeReadBy(key.id, `${tag} axb`);
    const names = async (q: string) =>
      (await listPlaces(ctxOf(db, key.actor as ApiKeyActor), ZListPlacesInput.parse({ q: `${tag} ${q}` }))).items.map(
        (p) => p.name,
      );
    expect(await names("50%")).toEqual([sale.name]);
    expect(await names("a_b")).toEqual([`${tag} a_b`]);
  });
});
