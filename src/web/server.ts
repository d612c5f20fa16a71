/**
 * The web app's process: Next.js behind a small HTTP server of our own, which owns the request
 * boundary before any route runs (docs/security.md):
 * - the client's address, from the socket and TRUST_PROXY only (`x-client-address`; forwarded headers
 *   a client wrote are dropped unless a trusted proxy stands in front);
 * - request bodies: a declared Content-Length above the route's limit is answered 413 and the
 *   connection closed, unread; a streamed body past MAX_REQUEST_BYTES closes the connection;
 * - the security headers of every answer, with a fresh script nonce handed to Next.js;
 * - GET /metrics and GET /ready, answered here, and the metrics of every other request (ops.ts,
 *   docs/observability.md).
 *   node --import tsx src/web/server.ts [--dev]
 */
import http from "node:http";
import { CLIENT_ADDRESS_HEADER, clientAddressOf } from "../server/core/client-address";
import { loadConfigOrExit } from "../server/core/config";
import { PROJECT_ROOT } from "../server/core/project-root";
import { onShutdown } from "../server/core/lifecycle";
import { createLogger } from "../server/core/logger";
import { metricsAccess } from "../server/core/metrics-http";
import { bodyLimitFor } from "../server/http/body-limit";
import { newNonce, securityHeaders } from "../server/http/security-headers";
import { ZWebServerConfig } from "./config";
import { createWebOps } from "./ops";

const config = loadConfigOrExit(ZWebServerConfig, "web");
const dev = process.argv.includes("--dev");
// As `next start` and `next dev` do; React and Next.js read it when they load, so it is set before.
(process.env as Record<string, string>).NODE_ENV = dev ? "development" : "production";
const { default: next } = await import("next");
const log = createLogger("web");
// Outgoing mail (docs/email.md): a production web app without SMTP_URL sends none; said at start and per mail.
if (!dev && !process.env.SMTP_URL?.trim()) {
  log.error(
    { event: "mail_not_configured" },
    "SMTP_URL is not set: no e-mail will be sent (password resets, confirmations)",
  );
}
const FORWARDED = [
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-real-ip",
  "forwarded",
];

const app = next({ dev, hostname: config.HOST, port: config.PORT });
await app.prepare();
const handle = app.getRequestHandler();
const ops = createWebOps({
  databaseUrl: config.DATABASE_URL,
  dbPingIntervalMs: config.DB_PING_INTERVAL_MS,
  // Without METRICS_TOKEN, open only under --dev on a loopback HOST (docs/observability.md).
  metrics: metricsAccess({ token: config.METRICS_TOKEN, production: !dev, host: config.HOST }),
  root: PROJECT_ROOT,
  dev,
  log,
});
await ops.start();

/**
 * Closes a connection whose request body will not be read, without cutting off the answer just sent:
 * the connection stops reading (the client's sending stalls on TCP's flow control, nothing is
 * buffered here) and is closed LINGER_MS later, time enough for the client to read the answer.
 */
const LINGER_MS = 2_000;
function closeUnread(req: http.IncomingMessage, socket: import("node:net").Socket): void {
  if (req.complete) return;
  stopReading(socket);
}

/** Stops reading a socket for good and closes it LINGER_MS later. */
function stopReading(socket: import("node:net").Socket | null): void {
  if (!socket || socket.destroyed) return;
  socket.pause();
  // The HTTP machinery may resume a paused socket when a route reads on: it stays paused.
  socket.on("resume", () => socket.pause());
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}

/** Whether a path's percent-escapes decode (URIError otherwise). */
function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * Answers a request without handing it to the app; the connection is closed when its body was not
 * read (every answer's `finish` does so, see below).
 */
function refuse(
  res: http.ServerResponse,
  status: number,
  code: string,
  message: string,
  extra: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...extra });
  res.end(JSON.stringify({ error: { code, message } }));
}

const server = http.createServer((req, res) => {
  const socket = req.socket;
  const trusted = config.TRUST_PROXY.kind !== "none";
  req.headers[CLIENT_ADDRESS_HEADER] = clientAddressOf(
    socket.remoteAddress,
    req.headers["x-forwarded-for"] as string | undefined,
    config.TRUST_PROXY,
  );
  // Behind no trusted proxy, a client's forwarded headers are its own claims: Next.js and Auth.js must
  // see the connection as it is (host, scheme), so they go.
  if (!trusted) for (const name of FORWARDED) delete req.headers[name];
  const https = "encrypted" in socket || (trusted && req.headers["x-forwarded-proto"] === "https");
  const nonce = newNonce();
  const headers = securityHeaders({ nonce, https, dev, brokerUrl: config.PUBLIC_BROKER_URL });
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  // Next.js takes the nonce for its scripts from the request's policy.
  req.headers["content-security-policy"] = headers["content-security-policy"];

  const pathname = (req.url ?? "/").split("?")[0] ?? "/";
  // An answer sent before the body was read in full closes the connection rather than reading the rest.
  res.once("finish", () => closeUnread(req, socket));
  if (ops.handle(req, res, pathname)) return;
  ops.observe(req, res, pathname);
  // A malformed escape ("%E0%A4%A") makes Next.js's router throw: the client's mistake, answered 400.
  if (!decodable(pathname)) return refuse(res, 400, "BAD_REQUEST", "malformed_path", headers);
  const limit = bodyLimitFor(pathname, config.MAX_REQUEST_BYTES);
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    return refuse(res, 413, "PAYLOAD_TOO_LARGE", "body_too_large", headers);
  }
  if (req.headers["transfer-encoding"]) {
    // A streamed body: the API routes stop at their limit and answer 413 themselves; past
    // MAX_REQUEST_BYTES and a margin, whatever route it is for, the connection goes, so no route can be
    // made to read (or Node to drain) an endless body.
    const start = socket.bytesRead;
    const watch = setInterval(() => {
      if (socket.bytesRead - start <= config.MAX_REQUEST_BYTES + 64 * 1024) return;
      clearInterval(watch);
      // Reading stops at once (the sender stalls on TCP flow control); the route's own 413, usually on
      // its way, still goes out before the connection closes.
      stopReading(socket);
    }, 25);
    req.once("end", () => clearInterval(watch));
    req.once("close", () => clearInterval(watch));
  }
  handle(req, res).catch((error: unknown) => {
    log.error({ err: error, url: pathname }, "request failed");
    if (!res.headersSent) refuse(res, 500, "INTERNAL", "internal_error");
  });
});
if (dev) server.on("upgrade", (req, socket, head) => void app.getUpgradeHandler()(req, socket, head));
server.headersTimeout = 20_000;
server.requestTimeout = 60_000;

server.listen(config.PORT, config.HOST, () =>
  log.info({ event: "listening", port: config.PORT, dev }, "web app listening"),
);
onShutdown(log, async () => {
  // /ready answers 503 from here on (on connections still open) while the requests in progress finish.
  ops.drain();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await app.close();
  await ops.stop();
});
