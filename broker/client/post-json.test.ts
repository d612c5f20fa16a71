import http from "node:http";
import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostError, postJson, retryAfterOf } from "./post-json";

let server: http.Server;
let base = "";
const seen: { headers: http.IncomingHttpHeaders; body: string }[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ headers: req.headers, body });
      if (req.url === "/busy")
        return res
          .writeHead(429, { "retry-after": "7", "content-type": "application/json" })
          .end('{"error":{"code":"TOO_MANY_REQUESTS","message":"later"}}');
      if (req.url === "/text") return res.writeHead(502).end("<html>bad gateway</html>");
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ echo: JSON.parse(body) as unknown }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("postJson", () => {
  it("posts JSON with its headers and parses any answer", async () => {
    const ok = await postJson(`${base}/join`, '{"a":1}', { "x-mesh-auth": "v1.x" });
    expect(ok).toMatchObject({ status: 200, json: { echo: { a: 1 } } });
    expect(seen.at(-1)?.headers).toMatchObject({
      "content-type": "application/json",
      "content-length": "7",
      "x-mesh-auth": "v1.x",
    });
    const busy = await postJson(`${base}/busy`, "{}");
    expect(busy).toMatchObject({ status: 429, json: { error: { code: "TOO_MANY_REQUESTS" } } });
    expect(retryAfterOf(busy.headers)).toBe(7);
    expect(await postJson(`${base}/text`, "{}")).toMatchObject({ status: 502, json: undefined });
  });

  it("rejects with the system error code when nothing answers", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await postJson(`http://127.0.0.1:${port}/join`, "{}").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostError);
    expect(error).toMatchObject({ code: "ECONNREFUSED", message: "ECONNREFUSED" });
  });
});
