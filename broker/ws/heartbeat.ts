import type { Logger } from "../../src/server/core/logger";
import type { ConnectionRegistry } from "./registry";

/**
 * Pings every connection each interval and terminates those that did not answer the previous ping,
 * so a peer whose network vanished without a close frame stops counting against its mesh's cap.
 * Returns the function that stops it.
 */
export function startHeartbeat(registry: ConnectionRegistry, intervalMs: number, log: Logger): () => void {
  const timer = setInterval(() => {
    for (const conn of registry.all()) {
      if (!conn.alive) {
        log.info({ event: "ws_dead", connectionId: conn.id }, "no pong, terminating");
        conn.ws.terminate();
        continue;
      }
      conn.alive = false;
      conn.ws.ping();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
