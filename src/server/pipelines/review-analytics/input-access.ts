import type { Db } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import { selectedPlaceKeys, type TReviewAnalyticsInput } from "./input";

/** The jobs (and batches) of a read scope: a key's own, or every one (null, administrators). */
const scoped = (readScopeApiKeyId: string | null) =>
  readScopeApiKeyId === null ? {} : { apiKeyId: readScopeApiKeyId };

/** The ids of `wanted` the query did not return (lower case, as PostgreSQL prints uuids). */
function missing(wanted: string[], found: { id: string }[]): string[] {
  const seen = new Set(found.map((f) => f.id));
  return wanted.filter((id) => !seen.has(id));
}

/**
 * Refuses a run request that names data the caller cannot read, one query per kind of name, each
 * with the access rule in its where clause: every job must be a job of the scope (404
 * `job_not_found`), every batch a batch of the scope (404 `batch_not_found`), and each place (`place_key`, every one of `place_keys`) must have at
 * least one review linked to a job of the scope (404 `place_not_found`). Another key's data answers
 * exactly as absent data, so a caller learns nothing about it.
 */
export async function assertReadableInput(
  db: Db,
  input: TReviewAnalyticsInput,
  readScopeApiKeyId: string | null,
): Promise<void> {
  const owner = scoped(readScopeApiKeyId);
  if (input.job_ids) {
    const ids = [...new Set(input.job_ids.map((id) => id.toLowerCase()))];
    const found = await db.job.findMany({ where: { id: { in: ids }, ...owner }, select: { id: true } });
    const absent = missing(ids, found);
    if (absent.length) throw new AppError("NOT_FOUND", "job_not_found", { job_ids: absent });
  }
  if (input.batch_ids) {
    const ids = [...new Set(input.batch_ids.map((id) => id.toLowerCase()))];
    const found = await db.batch.findMany({ where: { id: { in: ids }, ...owner }, select: { id: true } });
    const absent = missing(ids, found);
    if (absent.length) throw new AppError("NOT_FOUND", "batch_not_found", { batch_ids: absent });
  }
  const places = selectedPlaceKeys(input);
  if (places) {
    // One query for every named place: the places with at least one review linked to a job of the scope.
    const found = await db.review.findMany({
      where: {
        placeKey: { in: places },
        ...(input.origin !== undefined ? { origin: input.origin } : {}),
        jobs: { some: readScopeApiKeyId === null ? {} : { job: owner } },
      },
      distinct: ["placeKey"],
      select: { placeKey: true },
    });
    const seen = new Set(found.map((r) => r.placeKey));
    const absent = places.filter((p) => !seen.has(p));
    if (absent.length)
      throw new AppError(
        "NOT_FOUND",
        "place_not_found",
        input.place_keys ? { place_keys: absent } : { place_key: input.place_key },
      );
  }
}
