import http from "node:http";
import type { AddressInfo } from "node:net";

/** A server on 127.0.0.1 that counts every TCP connection and request it gets (tests of what must never reach it). */
export interface Probe {
  url: string;
  port: number;
  /** TCP connections accepted so far (a preconnect without a request counts too). */
  readonly connections: number;
  requests: { method: string | undefined; host: string | undefined; url: string | undefined }[];
  close: () => Promise<void>;
}

/** Starts a probe; `handler` answers its requests (default: 200 "ok"). */
export async function startProbe(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_q, s) => s.end("ok"),
): Promise<Probe> {
  let connections = 0;
  const requests: Probe["requests"] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method, host: req.headers.host, url: req.url });
    handler(req, res);
  });
  server.on("connection", () => (connections += 1));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get connections() {
      return connections;
    },
    requests,
    close: () => new Promise<void>((r) => (server.close(() => r()), server.closeAllConnections())),
  };
}
