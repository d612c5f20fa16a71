import { reviewExport } from "@/server/api/review-export-route";
import { getSessionUser } from "@/server/auth/session-user";

export const dynamic = "force-dynamic";

/** Every review of a job as CSV or NDJSON, streamed (docs/review-engine.md, "Reviews out"). */
export const GET = reviewExport("job", getSessionUser);
