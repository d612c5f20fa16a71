import { waitAtMost } from "../../src/server/core/lifecycle";
import { closeWith } from "../protocol/close";
import type { ConnectionRegistry } from "./registry";

/** Closes every socket `SHUTTING_DOWN` (1001, going away); sockets that do not finish the handshake in 2 s are cut. */
export async function closeSockets(connections: ConnectionRegistry): Promise<void> {
  const all = [...connections.all()];
  const closed = all.map(
    (c) =>
      new Promise<void>((resolve) =>
        c.ws.readyState === c.ws.CLOSED ? resolve() : c.ws.once("close", () => resolve()),
      ),
  );
  for (const c of all) closeWith(c.ws, "SHUTTING_DOWN", "server shutting down");
  await waitAtMost(Promise.all(closed), 2_000);
  for (const c of connections.all()) c.ws.terminate();
  await new Promise<void>((resolve) => setImmediate(resolve));
}
