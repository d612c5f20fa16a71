/**
 * The category taxonomy of review-analytics (docs/pipelines.md, "Taxonomy"). The rules of each
 * language, and the matcher that finds a stretch of text's categories, are in categories.ts.
 */
export const CATEGORIES = ["food", "service", "price", "cleanliness", "waiting_time", "ambience"] as const;
export type Category = (typeof CATEGORIES)[number];

/** The team that owns the issues of each category (route stage). */
export const OWNER_TEAMS: Record<Category, string> = {
  food: "kitchen",
  service: "front_of_house",
  price: "management",
  cleanliness: "facilities",
  waiting_time: "operations",
  ambience: "facilities",
};
