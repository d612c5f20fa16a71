import type { Db, Prisma } from "@/server/core/db";
import type { Aggregates } from "./aggregates";
import type { RunPlace } from "../types";

/** What the report compares with: the totals of the newest earlier run of the same places. */
export interface PreviousRun {
  execution_id: string;
  finished_at: string;
  totals: Pick<Aggregates["totals"], "reviews" | "average_rating" | "positive_pct" | "negative_pct"> & {
    critical_reviews: number | null;
  };
}

const CANDIDATES = 50;
const setOf = (places: readonly Pick<RunPlace, "origin" | "place_key">[]) =>
  places
    .map((p) => `${p.origin} ${p.place_key}`)
    .sort()
    .join("\n");

/**
 * The newest succeeded review-analytics run over exactly the same places, within the same read scope
 * (the same API key's data, or an administrator's), among the 50 newest of that scope; null when none.
 * A run of another principal is never compared with: its figures are its owner's.
 */
export async function previousRun(
  db: Db | Prisma.TransactionClient,
  places: readonly RunPlace[],
  readScopeApiKeyId: string | null,
  /** A run that is not a candidate (the run itself, once it is stored as succeeded). */
  exceptId?: string,
): Promise<PreviousRun | null> {
  if (places.length === 0) return null;
  const wanted = setOf(places);
  const rows = await db.pipelineExecution.findMany({
    where: {
      pipelineId: "review-analytics",
      status: "succeeded",
      readScopeApiKeyId,
      finishedAt: { not: null },
      ...(exceptId ? { id: { not: exceptId } } : {}),
    },
    orderBy: { finishedAt: "desc" },
    take: CANDIDATES,
    select: { id: true, finishedAt: true, places: true, result: true },
  });
  for (const row of rows) {
    if (!Array.isArray(row.places) || setOf(row.places as unknown as RunPlace[]) !== wanted) continue;
    const totals = (row.result as { totals?: Partial<Aggregates["totals"]> } | null)?.totals;
    if (!totals || typeof totals.reviews !== "number") continue;
    return {
      execution_id: row.id,
      finished_at: (row.finishedAt as Date).toISOString(),
      totals: {
        reviews: totals.reviews,
        average_rating: totals.average_rating ?? null,
        positive_pct: totals.positive_pct ?? 0,
        negative_pct: totals.negative_pct ?? 0,
        critical_reviews: totals.critical_reviews ?? null,
      },
    };
  }
  return null;
}
