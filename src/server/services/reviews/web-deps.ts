import { db } from "@/server/core/db";
import { reviewSettings } from "@/server/queue/settings";
import { configuredSealer } from "../context";
import type { ReviewDeps } from "./deps";

/** Dependencies of the review-engine use cases in the web app. */
export function reviewDeps(): ReviewDeps {
  return { db: db(), sealer: configuredSealer(), settings: reviewSettings() };
}
