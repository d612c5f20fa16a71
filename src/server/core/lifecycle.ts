import type http from "node:http";
import type { Logger } from "./logger";

/**
 * Runs `close` once on the first SIGTERM or SIGINT, then exits 0; exits 1 if closing takes longer
 * than the grace period (so a stuck handle cannot keep a stopped process alive).
 */
export function onShutdown(log: Logger, close: () => Promise<void>, graceMs = 10_000): void {
  let closing = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      log.info({ event: "shutdown", signal }, "stopping");
      setTimeout(() => process.exit(1), graceMs).unref();
      void close().then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, "error while stopping");
          process.exit(1);
        },
      );
    });
  }
}

/**
 * Waits for `work` to settle, but at most `ms` milliseconds (a shutdown step that must not hold the
 * process). Never rejects; the timer is cleared when the work settles first, and holds the process
 * only while the work is pending, so the steps after it still run.
 */
export async function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([
    work.then(
      () => undefined,
      () => undefined,
    ),
    giveUp,
  ]);
  clearTimeout(timer);
}

/** Writes a JSON answer that is never cached. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

/** The one 404 answer of the plain HTTP servers (broker, worker). */
export function sendNotFound(res: http.ServerResponse): void {
  sendJson(res, 404, { error: { code: "NOT_FOUND", message: "no such path" } });
}
