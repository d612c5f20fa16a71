import { reviewExport } from "@/server/api/review-export-route";
import { getSessionUser } from "@/server/auth/session-user";

export const dynamic = "force-dynamic";

/** A place's reviews (with the place page's filters) as CSV or NDJSON, streamed (docs/review-engine.md, "Reviews out"). */
export const GET = reviewExport("place", getSessionUser);
