/**
 * Reconnects after a node restart (issue 42, point 3), not in CI: 1,000 clients hold a socket to a node;
 * the node closes them (1001, as a broker's shutdown does) and its listener, stays down, then listens again
 * on the same port. Each client is the reference client's socket (`openSocket`, broker/client/socket.ts)
 * with its reconnect rule (`afterEnd`), so what is measured is the client's own timing; the node is a bare
 * `ws` server without a database whose admission emulates the broker's connect gate (16 checks at a time,
 * a few milliseconds each, 1,000 waiting at most, else 503 with a Retry-After of 1–5 s; 503 with 1 s while it
 * drains).
 * Printed per rule: the reconnect delay after the node was ready again (p50, p99, max), the connection
 * attempts per second at the peak while the node was down and after it was back (the herd), and all
 * attempts. The baseline is the rule before issue 42 (500 ms doubling to 30 s with equal jitter whatever
 * the failure, Retry-After plus up to half of it, a draining node's 1–5 s), measured in the same run.
 *   npx tsx bench/reconnect.ts [clients=1000] [seconds down=10]
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { randomUUID } from "node:crypto";
import nacl from "tweetnacl";
import { WebSocketServer, type WebSocket } from "ws";
import { backoffDelay, DEFAULT_BACKOFF } from "../broker/client/delivery";
import { afterEnd, endError, openSocket, type SocketEnd } from "../broker/client/socket";
import { percentile } from "./lib";

const CLIENTS = Number(process.argv[2] ?? 1000);
const DOWN_MS = Number(process.argv[3] ?? 10) * 1000;
const GATE_CONCURRENCY = 16;
const GATE_QUEUE = 1000;
const CHECK_MS = 3;

type Rule = (end: SocketEnd, attempt: number) => { fatal: unknown } | { delayMs: number };

/** The rule before issue 42 (socket.ts as it was). */
const baseline: Rule = (end, attempt) => {
  const error = endError(end);
  if (!error.retryable) return { fatal: error };
  const wait = end.kind === "refused" && end.retryAfterSeconds ? end.retryAfterSeconds * 1000 : 0;
  return {
    delayMs: wait > 0 ? wait + Math.round(Math.random() * (wait / 2)) : backoffDelay(attempt, DEFAULT_BACKOFF),
  };
};
const current: Rule = (end, attempt) => afterEnd(end, attempt);

/** A node: a listener on `port` (0: any) whose upgrades pass a connect gate like the broker's. */
async function startNode(port: number, drainRetryS: () => number) {
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<WebSocket>();
  let running = 0;
  const waiting: Array<() => void> = [];
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  const raw = new Set<Duplex>();
  let draining = false;
  server.on("connection", (s: Duplex) => (raw.add(s), s.on("close", () => raw.delete(s))));
  // 503 with a Retry-After: 1 s from a draining node, 1-5 s at random from a full gate, as the broker answers.
  const busy = (socket: Duplex) => {
    const retry = draining ? drainRetryS() : 1 + Math.floor(Math.random() * 5);
    socket.end(`HTTP/1.1 503 Service Unavailable\r\nretry-after: ${retry}\r\ncontent-length: 0\r\n\r\n`);
  };
  const next = () => {
    while (running < GATE_CONCURRENCY && waiting.length > 0) {
      running += 1;
      waiting.shift()!();
    }
  };
  server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => {});
    if (draining || waiting.length >= GATE_QUEUE) return busy(socket);
    waiting.push(() =>
      setTimeout(() => {
        running -= 1;
        next();
        if (socket.destroyed) return;
        if (draining) return busy(socket);
        wss.handleUpgrade(req, socket, head, (ws) => {
          sockets.add(ws);
          ws.on("close", () => sockets.delete(ws));
          ws.on("error", () => {});
        });
      }, CHECK_MS),
    );
    next();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    /** Drains (503 to new upgrades), closes every socket 1001 as a broker's shutdown does, then the listener. */
    async stop() {
      draining = true;
      for (const ws of sockets) ws.close(1001, "server shutting down");
      await new Promise((r) => setTimeout(r, 200));
      for (const ws of sockets) ws.terminate();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of raw) s.destroy();
      await closed;
      wss.close();
    },
  };
}

interface Client {
  attempt: number;
  connectedAt: number;
  firstTryAt?: number;
  ws?: ReturnType<typeof openSocket>;
  timer?: NodeJS.Timeout;
}

async function run(name: string, rule: Rule, drainRetryS: () => number) {
  let node = await startNode(0, drainRetryS);
  const port = node.port;
  const attempts: number[] = [];
  const keys = nacl.sign.keyPair();
  const target = { brokerUrl: `ws://127.0.0.1:${port}`, meshId: randomUUID(), memberId: randomUUID() };
  const clients: Client[] = Array.from({ length: CLIENTS }, () => ({ attempt: 0, connectedAt: 0 }));
  let stopping = false;
  let readyAt = 0;
  const dial = (c: Client) => {
    c.timer = undefined;
    const now = Date.now();
    attempts.push(now);
    if (readyAt && now >= readyAt) c.firstTryAt ??= now;
    c.ws = openSocket(
      { ...target, signSecretKey: keys.secretKey },
      {
        onFrame: () => {},
        onEnd: (end) => {
          c.ws = undefined;
          if (stopping) return;
          const next = rule(end, c.attempt);
          if (!("delayMs" in next)) throw new Error(`fatal end ${JSON.stringify(end)}`);
          c.attempt += 1;
          c.timer = setTimeout(() => dial(c), next.delayMs);
        },
      },
    );
    c.ws.on("open", () => {
      c.attempt = 0;
      c.connectedAt = Date.now();
    });
  };
  // All connected first, in batches (not measured).
  for (const c of clients) dial(c);
  while (clients.some((c) => !c.connectedAt)) await new Promise((r) => setTimeout(r, 50));

  const stoppedAt = Date.now();
  for (const c of clients) c.connectedAt = 0;
  const before = attempts.length;
  await node.stop();
  await new Promise((r) => setTimeout(r, DOWN_MS - (Date.now() - stoppedAt)));
  node = await startNode(port, drainRetryS);
  readyAt = Date.now();
  while (clients.some((c) => c.connectedAt < readyAt)) await new Promise((r) => setTimeout(r, 20));
  const delays = clients.map((c) => c.connectedAt - readyAt);
  // The first dial of each client after the node was back: the client's own wait, the gate's queue apart.
  const firstTries = clients.map((c) => (c.firstTryAt ?? c.connectedAt) - readyAt);

  const during = attempts.slice(before);
  const peak = (from: number, to: number) => {
    // Attempts in the busiest one-second window (slid by 100 ms).
    let best = 0;
    for (let t = from; t < to; t += 100) best = Math.max(best, during.filter((a) => a >= t && a < t + 1000).length);
    return best;
  };
  const lastAt = Math.max(...clients.map((c) => c.connectedAt));
  const row = {
    rule: name,
    "p50 ms": percentile(delays, 50),
    "p99 ms": percentile(delays, 99),
    "max ms": Math.max(...delays),
    "p50 first dial ms": percentile(firstTries, 50),
    "peak/s down": peak(stoppedAt, readyAt - 1000),
    "peak/s back": peak(readyAt - 500, lastAt),
    attempts: during.length,
  };
  stopping = true;
  for (const c of clients) {
    if (c.timer) clearTimeout(c.timer);
    c.ws?.terminate();
  }
  await node.stop();
  return row;
}

async function main() {
  console.log(`${CLIENTS} clients, node down ${DOWN_MS / 1000} s; delays are from the node listening again`);
  // Before issue 42 a draining node answered with the storm's random 1-5 s too.
  const storm = () => 1 + Math.floor(Math.random() * 5);
  const rows = [
    await run("baseline (before issue 42)", baseline, storm),
    await run("current (RESTART_BACKOFF)", current, () => 1),
  ];
  console.table(rows);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
