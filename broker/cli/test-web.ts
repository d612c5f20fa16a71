// Integration-test helper of the command line: the web app's REST routes as /api/[...] serves them,
// signed out (the CLI has no session), on a loopback port of its own.
import http from "node:http";
import { handleRest } from "@/server/api/openapi/rest-handler";
import { createContext } from "@/server/api/trpc";
import type { Db } from "@/server/core/db";
import { freePort } from "@/test/helpers";

export async function startRestWeb(db: Db): Promise<{ server: http.Server; url: string }> {
  const port = await freePort();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request = new Request(`http://127.0.0.1:${port}${req.url ?? "/"}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: req.method === "POST" ? Buffer.concat(chunks) : undefined,
      });
      void handleRest(request, () => createContext({ user: null, db, headers: request.headers })).then(
        async (answer) => {
          res.writeHead(answer.status, { "content-type": "application/json" });
          res.end(Buffer.from(await answer.arrayBuffer()));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${port}` };
}
