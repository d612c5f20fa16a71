import { db } from "@/server/core/db";

export const dynamic = "force-dynamic";

/** Liveness of the web app and its database connection. */
export async function GET() {
  const started = performance.now();
  try {
    await db().$queryRaw`SELECT 1`;
    return Response.json({ status: "ok", db: "up", latencyMs: Math.round(performance.now() - started) });
  } catch {
    return Response.json({ status: "degraded", db: "down" }, { status: 503 });
  }
}
