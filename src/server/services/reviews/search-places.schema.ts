import { z } from "zod";

// Input and output of the forms' place search (search-places.ts).

/** Places one search answers at most: a picker's list, never a page of the table. */
export const PLACE_SEARCH_LIMIT = 10;

export const ZSearchPlacesInput = z.object({
  /** Part of the place's name (or its platform id), at least 2 characters. */
  q: z.string().trim().min(2).max(100),
  limit: z.number().int().min(1).max(PLACE_SEARCH_LIMIT).default(PLACE_SEARCH_LIMIT),
});
export type TSearchPlacesInput = z.output<typeof ZSearchPlacesInput>;

/** A place as the picker shows it: its name, its key, where it is and what the forms submit. */
export const ZPlaceMatch = z.object({
  id: z.string(),
  name: z.string().nullable(),
  place_key: z.string(),
  platform_id: z.string().nullable(),
  origin: z.string(),
  address: z.string().nullable(),
  review_total: z.number().int().nullable(),
});
export const ZSearchPlacesOut = z.object({ items: z.array(ZPlaceMatch) });
