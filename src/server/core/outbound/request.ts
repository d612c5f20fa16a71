import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { classifyAddress, type AddressClass } from "./address";

// Every HTTP request the product makes to an address it did not choose itself (callbacks, scrapers,
// the browser's page loads) goes through `outboundRequest`: the name is resolved once, every address
// is checked by the address guard, the connection goes to the checked address (a second DNS answer
// cannot move it: no DNS rebinding; connections are kept alive per address) and the address actually connected is checked again; one
// deadline bounds the whole exchange, from the lookup to the last byte of the answer; the answer's
// size is bounded. Redirects are never followed here: the caller decides (callbacks never follow,
// scrapers follow within the platform's origin).

/** Why an outbound request did not get an answer. */
export type OutboundErrorCode = "refused" | "timeout" | "network" | "too_large" | "aborted";

export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
    /** refused: the address class or "unresolvable"; network: the Node error code. */
    readonly detail?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "OutboundError";
  }
}

/** Resolves a host name to its addresses (the system resolver by default; tests give their own). */
export type HostLookup = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: HostLookup = (host) => lookup(host, { all: true, verbatim: true });

export interface OutboundOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Time limit of the whole request: lookup, connection, sending, and reading the answer to its end. */
  deadlineMs: number;
  /** Largest answer body read. */
  maxResponseBytes: number;
  /** Past maxResponseBytes: "truncate" keeps the first bytes and answers (truncated: true); "error" fails with too_large. */
  overflow: "truncate" | "error";
  /** Loopback, private and other non-public addresses allowed (local development, tests, an operator's own platform). */
  allowPrivate: boolean;
  signal?: AbortSignal;
  /** The resolver (default: the system's); asked once per request. */
  lookup?: HostLookup;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
}

// Kept-alive connections, pooled by the address actually connected (requests go to the checked IP,
// with the name in Host and TLS SNI): a pooled connection serves only requests whose own check chose
// that same address, so reuse never carries a request to an address its policy refuses.
const AGENT = {
  keepAlive: true,
  keepAliveMsecs: 1_000,
  maxFreeSockets: 64,
  scheduling: "lifo" as const,
  timeout: 5_000,
};
const agents = { http: new http.Agent(AGENT), https: new https.Agent(AGENT) };

const hostOf = (url: URL) => (url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname);

function refusal(cls: AddressClass | "unresolvable"): OutboundError {
  return new OutboundError("refused", `destination refused: ${cls}`, cls);
}

/** The address to connect to: the literal, or the first of the name's addresses after checking them all. */
export async function resolveGuarded(
  url: URL,
  allowPrivate: boolean,
  resolve: HostLookup = systemLookup,
): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostOf(url);
  let addresses: { address: string; family: number }[];
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      throw new OutboundError("network", `name not resolved`, (error as { code?: string }).code ?? "ENOTFOUND", {
        cause: error,
      });
    }
  }
  const first = addresses[0];
  if (!first) throw refusal("unresolvable");
  if (!allowPrivate) {
    for (const a of addresses) {
      const cls = classifyAddress(a.address);
      if (cls !== "public") throw refusal(cls);
    }
  }
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** Sends one request under the guard and reads its answer (see the file's comment). */
export function outboundRequest(url: URL, options: OutboundOptions): Promise<OutboundResponse> {
  return new Promise<OutboundResponse>((resolve, reject) => {
    let req: http.ClientRequest | undefined;
    let settled = false;
    const finish = (error: OutboundError | null, value?: OutboundResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (error) {
        req?.destroy();
        reject(error);
      } else resolve(value as OutboundResponse);
    };
    const timer = setTimeout(
      () => finish(new OutboundError("timeout", `no complete answer within ${options.deadlineMs} ms`)),
      options.deadlineMs,
    );
    const onAbort = () =>
      finish(new OutboundError("aborted", "request aborted", undefined, { cause: options.signal?.reason }));
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return finish(new OutboundError("refused", `unsupported scheme ${url.protocol}`, "scheme"));

    resolveGuarded(url, options.allowPrivate, options.lookup).then(
      (target) => {
        if (settled) return;
        const secure = url.protocol === "https:";
        const body = options.body ?? "";
        const name = hostOf(url);
        // The connection goes to the checked address itself; the name travels in Host (and SNI), so a
        // second DNS answer cannot move it (no DNS rebinding).
        req = (secure ? https : http).request({
          host: target.address,
          family: target.family,
          port: url.port || (secure ? 443 : 80),
          path: `${url.pathname}${url.search}`,
          method: options.method ?? "GET",
          agent: secure ? agents.https : agents.http,
          ...(secure && !net.isIP(name) ? { servername: name } : {}),
          headers: {
            host: url.host,
            ...options.headers,
            ...(options.body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }),
          },
        });
        req.on("socket", (socket) => {
          // The address actually connected: the checked one, and allowed.
          const check = () => {
            const remote = socket.remoteAddress ?? "";
            if (remote !== target.address || (!options.allowPrivate && classifyAddress(remote) !== "public"))
              finish(refusal(classifyAddress(remote)));
          };
          if (socket.connecting) socket.once("connect", check);
          else check();
        });
        req.on("response", (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            if (settled) return;
            if (size + chunk.length > options.maxResponseBytes) {
              if (options.overflow === "error")
                return finish(new OutboundError("too_large", `answer larger than ${options.maxResponseBytes} bytes`));
              chunks.push(chunk.subarray(0, options.maxResponseBytes - size));
              size = options.maxResponseBytes;
              finish(null, {
                status: res.statusCode ?? 0,
                headers: res.headers,
                body: Buffer.concat(chunks),
                truncated: true,
              });
              res.destroy();
              return;
            }
            chunks.push(chunk);
            size += chunk.length;
          });
          res.on("end", () =>
            finish(null, {
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
              truncated: false,
            }),
          );
          res.on("error", (error) => finish(networkError(error)));
        });
        req.on("error", (error) => finish(networkError(error)));
        req.end(options.body);
      },
      (error: unknown) => finish(error instanceof OutboundError ? error : networkError(error)),
    );
  });
}

function networkError(error: unknown): OutboundError {
  const code = (error as { code?: unknown }).code;
  return new OutboundError(
    "network",
    `network error${typeof code === "string" ? `: ${code}` : ""}`,
    typeof code === "string" ? code : undefined,
    { cause: error },
  );
}
