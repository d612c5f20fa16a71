import type { ServiceContext } from "../context";
import { ownedBy, type ReviewActor } from "./access";
import type { TSearchPlacesInput } from "./search-places.schema";
import { containsText } from "@/server/core/text-search";

// The forms' place search (docs/review-engine.md, "Forms"): known places by name or platform id, at
// most PLACE_SEARCH_LIMIT, those the caller may see only (a key without the admin scope: the places
// its own jobs read). The name's trigram index (places_name_trgm_idx) serves the contains match, the
// platform id's index the exact one.

/** Known places whose name contains `q` (case-insensitive) or whose platform id is `q`, latest seen first. */
export async function searchPlaces(ctx: ServiceContext<ReviewActor>, input: TSearchPlacesInput) {
  const { db, actor } = ctx;
  const own = ownedBy(actor);
  const rows = await db.place.findMany({
    where: {
      ...(own.apiKeyId ? { jobs: { some: { apiKeyId: own.apiKeyId } } } : {}),
      OR: [{ name: containsText(input.q) }, { platformId: input.q }],
    },
    orderBy: [{ lastSeenAt: "desc" }, { id: "desc" }],
    take: input.limit,
  });
  return {
    items: rows.map((p) => ({
      id: p.id,
      name: p.name,
      place_key: p.placeKey,
      platform_id: p.platformId,
      origin: p.origin,
      address: p.address,
      review_total: p.reviewTotal,
    })),
  };
}
