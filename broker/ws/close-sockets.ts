import { waitAtMost } from "../../src/server/core/lifecycle";
import type { ConnectionRegistry } from "./registry";

/** Closes every socket with 1001 (going away); sockets that do not finish the handshake in 2 s are cut. */
export async function closeSockets(connections: ConnectionRegistry): Promise<void> {
  const all = [...connections.all()];
  const closed = all.map(
    (c) =>
      new Promise<void>((resolve) =>
        c.ws.readyState === c.ws.CLOSED ? resolve() : c.ws.once("close", () => resolve()),
      ),
  );
  for (const c of all) c.ws.close(1001, "server shutting down");
  await waitAtMost(Promise.all(closed), 2_000);
  for (const c of connections.all()) c.ws.terminate();
  await new Promise<void>((resolve) => setImmediate(resolve));
}
