// One JSON POST over node:http(s). Not fetch: fetch refuses the "bad ports" of the Fetch standard
// (6000, 6665-6669, 10080, …), and a broker may listen on any port the WebSocket side accepts.
import http from "node:http";
import { MeshClientError } from "./mesh-client-error";
import https from "node:https";

export interface JsonAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

/** Thrown when no HTTP answer came (refused, reset, DNS, timeout); `code` is the system error code. */
export class PostError extends MeshClientError {
  constructor(code: string, message: string) {
    super(code, message, { retryable: true });
    this.name = "PostError";
  }
}

const MAX_ANSWER_BYTES = 1_000_000;

/** POSTs a JSON body; resolves with the status, headers and parsed JSON of any answer. */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string> = {},
  timeoutMs = 15_000,
): Promise<JsonAnswer> {
  const target = new URL(url);
  const lib = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      target,
      {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers },
        timeout: timeoutMs,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          if (text.length < MAX_ANSWER_BYTES) text += chunk;
        });
        res.on("end", () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
        });
        res.on("error", (e: NodeJS.ErrnoException) => reject(new PostError(e.code ?? "ERROR", e.code ?? e.message)));
      },
    );
    req.on("timeout", () => req.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
    req.on("error", (e: NodeJS.ErrnoException) => reject(new PostError(e.code ?? "ERROR", e.code ?? e.message)));
    req.end(body);
  });
}

/** Seconds of a Retry-After header, when it is a positive number. */
export function retryAfterOf(headers: http.IncomingHttpHeaders): number | undefined {
  const value = Number(headers["retry-after"]);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
