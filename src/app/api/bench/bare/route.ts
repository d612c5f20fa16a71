export const dynamic = "force-dynamic";

const BODY = { ok: true, note: "constant JSON: the baseline of bench/public-stats.ts" };

/** A bare route for benchmarks; answers 404 unless BENCH_ROUTES=1. */
export function GET() {
  if (process.env.BENCH_ROUTES !== "1")
    return Response.json({ error: { code: "NOT_FOUND", message: "no such path" } }, { status: 404 });
  return Response.json(BODY);
}
