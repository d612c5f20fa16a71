import net from "node:net";

/** A TCP proxy on loopback whose traffic can be held up, as a network cut would, and let through again. */
export interface TcpProxy {
  port: number;
  /** Holds every byte in both directions (and new connections) until `resume`: nothing is closed, nothing arrives. */
  pause: () => void;
  /** Delivers what was held, in order, and forwards again. */
  resume: () => void;
  close: () => Promise<void>;
}

/**
 * Forwards connections on 127.0.0.1 to `target` (a port on 127.0.0.1). While paused, the bytes each side
 * sends are kept in order and nothing reaches the other side, so both ends see a silent peer, as behind a
 * cut network whose packets TCP retransmits until it is back.
 */
export async function startTcpProxy(target: number): Promise<TcpProxy> {
  let paused = false;
  const held: (() => void)[] = [];
  const sockets = new Set<net.Socket>();
  const later = (fn: () => void) => (paused ? held.push(fn) : fn());
  const server = net.createServer((client) => {
    sockets.add(client);
    const upstream = net.connect({ host: "127.0.0.1", port: target });
    sockets.add(upstream);
    const forward = (from: net.Socket, to: net.Socket) => {
      from.on("data", (chunk) => later(() => to.write(chunk)));
      from.on("end", () => later(() => to.end()));
      from.on("error", () => to.destroy());
      from.on("close", () => {
        sockets.delete(from);
        later(() => to.destroy());
      });
    };
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
      for (const fn of held.splice(0)) fn();
    },
    close: async () => {
      paused = false;
      held.length = 0;
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
