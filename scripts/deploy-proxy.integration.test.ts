// deploy/Caddyfile, unchanged, in front of a real broker (and stand-ins for the web app, which needs a
// production build): TLS for https and wss with a throwaway certificate, the broker's routes under
// /broker for the real `mesh` command line, the client's address as the processes see it behind the
// proxy (TRUST_PROXY=1), internal paths kept in, and pools that route around a draining or dead
// upstream. Needs Caddy (`apt-get install caddy`; .ci/run installs it): skipped without it, except
// under CI, where it fails.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientAddressOf, ZTrustProxy } from "@/server/core/client-address";
import { freePort, testDb } from "@/test/helpers";
import { meshForBroker } from "../broker/client/test-mesh";
import { MeshProcesses, until } from "../broker/cli/test-cli";
import { brokerProcess, type BrokerProcess } from "../broker/test-support";
import { DEPLOY_DIR } from "./lib/deploy-kit";

const haveCaddy = spawnSync("caddy", ["version"]).status === 0;
const db = testDb();
const dir = mkdtempSync(path.join(os.tmpdir(), "deploy-proxy-"));
const procs = new MeshProcesses();
let caddy: ChildProcess | undefined;
let caddyLog = "";
let broker: BrokerProcess | undefined;
let proxyPort = 0;
let httpPort = 0;
let cert: Buffer;
const standIns: http.Server[] = [];

interface Seen {
  path: string;
  headers: http.IncomingHttpHeaders;
  socket: string;
}
/** A stand-in web process: answers /ready with `ready`, any other path with its name, and records what it got. */
async function standIn(name: string, ready: number) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? "", headers: req.headers, socket: req.socket.remoteAddress ?? "" });
    if (req.url === "/ready") return void res.writeHead(ready).end();
    res.writeHead(200, { "content-type": "text/plain" }).end(name);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  standIns.push(server);
  return { seen, address: `127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}
/** One HTTPS request to the proxy, as a browser at `from` (a loopback address) would send it. */
function request(
  pathname: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: "127.0.0.1",
        port: proxyPort,
        path: pathname,
        method: opts.method ?? "GET",
        servername: "localhost",
        ca: cert,
        agent: false,
        localAddress: opts.from ?? "127.0.0.1",
        headers: { host: `localhost:${proxyPort}`, ...opts.headers },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

let web: Awaited<ReturnType<typeof standIn>>;
let draining: Awaited<ReturnType<typeof standIn>>;

describe.skipIf(!haveCaddy && process.env.CI !== "true")("deploy/Caddyfile in front of the processes", () => {
  beforeAll(async () => {
    if (!haveCaddy) throw new Error("caddy is not installed (apt-get install caddy; .ci/run installs it)");
    const made = spawnSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "1",
        "-keyout",
        path.join(dir, "key.pem"),
        "-out",
        path.join(dir, "cert.pem"),
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost,IP:127.0.0.1",
      ],
      { encoding: "utf8" },
    );
    if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`);
    cert = readFileSync(path.join(dir, "cert.pem"));

    web = await standIn("web-a", 200);
    draining = await standIn("web-b", 503);
    broker = await brokerProcess("proxy", { TRUST_PROXY: "1", JOIN_RATE_PER_MINUTE: "3", BROKER_HOST: "127.0.0.1" });
    const ready = await fetch(`${broker.http}/ready`);
    if (ready.status !== 200)
      throw new Error(
        `the broker answers GET /ready with ${ready.status}: the proxy's health checks (health_uri /ready) need it`,
      );
    const dead = await freePort();
    [proxyPort, httpPort] = [await freePort(), await freePort()];
    const proxy = spawn("caddy", ["run", "--config", path.join(DEPLOY_DIR, "Caddyfile"), "--adapter", "caddyfile"], {
      env: {
        ...process.env,
        XDG_DATA_HOME: dir,
        XDG_CONFIG_HOME: dir,
        CADDY_ADMIN: "off",
        HTTP_PORT: String(httpPort),
        HTTPS_PORT: String(proxyPort),
        SITE_ADDRESS: `localhost:${proxyPort}`,
        TLS: `${path.join(dir, "cert.pem")} ${path.join(dir, "key.pem")}`,
        WEB_UPSTREAMS: `${web.address} ${draining.address}`,
        BROKER_UPSTREAMS: `127.0.0.1:${broker.port} 127.0.0.1:${dead}`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    caddy = proxy;
    proxy.stderr?.on("data", (c: Buffer) => (caddyLog += c.toString()));
    proxy.stdout?.on("data", (c: Buffer) => (caddyLog += c.toString()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answer = await request("/broker/health").catch(() => undefined);
      if (answer?.status === 200) break;
      if (Date.now() > deadline || proxy.exitCode !== null) throw new Error(`the proxy did not come up:\n${caddyLog}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    // The draining stand-in has been asked for /ready (and answered 503) before any request is sent.
    await until(() => draining.seen.some((s) => s.path === "/ready"), "the proxy's first readiness check");
  }, 90_000);

  afterAll(async () => {
    procs.cleanup();
    caddy?.kill("SIGTERM");
    broker?.child.kill("SIGTERM");
    await broker?.exited;
    for (const s of standIns) s.closeAllConnections();
    await Promise.all(standIns.map((s) => new Promise((resolve) => s.close(resolve))));
    await db.$disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it("sends / to the ready web process only, with the client's address, https and the host, whatever the client claims", async () => {
    const spoofed = {
      "x-forwarded-for": "203.0.113.9",
      "x-forwarded-proto": "http",
      "x-forwarded-host": "evil.example",
    };
    for (let i = 0; i < 8; i++) {
      const answer = await request(`/en/page-${i}`, { from: "127.0.0.2", headers: spoofed });
      expect(answer, caddyLog).toMatchObject({ status: 200, body: "web-a" });
    }
    expect(draining.seen.filter((s) => s.path !== "/ready")).toEqual([]);
    const got = web.seen.filter((s) => s.path.startsWith("/en/page-"));
    expect(got).toHaveLength(8);
    for (const { headers, socket } of got) {
      expect(headers).toMatchObject({
        host: `localhost:${proxyPort}`,
        "x-forwarded-for": "127.0.0.2",
        "x-forwarded-proto": "https",
        "x-forwarded-host": `localhost:${proxyPort}`,
      });
      // What the web server decides with TRUST_PROXY=1 (compose.yaml): the browser, not the proxy.
      expect(clientAddressOf(socket, String(headers["x-forwarded-for"]), ZTrustProxy.parse("1"))).toBe("127.0.0.2");
    }
  });

  it("keeps /metrics, /ready and the broker's other paths from the internet", async () => {
    for (const p of ["/metrics", "/ready", "/broker/metrics", "/broker/ready", "/broker", "/broker/other"]) {
      expect((await request(p)).status, p).toBe(404);
    }
    expect(web.seen.filter((s) => s.path === "/metrics")).toEqual([]);
  });

  it("redirects http to https", async () => {
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .get({ host: "127.0.0.1", port: httpPort, path: "/en", headers: { host: "localhost" } }, resolve)
        .on("error", reject),
    );
    answer.resume();
    expect(answer.statusCode).toBe(308);
    const location = new URL(answer.headers.location ?? "");
    expect([location.protocol, location.hostname, location.pathname]).toEqual(["https:", "localhost", "/en"]);
  });

  it("serves the broker's /health under /broker through a pool with a dead node", async () => {
    for (let i = 0; i < 6; i++) {
      const answer = await request("/broker/health");
      expect(answer.status, caddyLog).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ status: "ok", db: "up" });
    }
  });

  it("lets the broker tell clients apart by their address, not by what they claim (TRUST_PROXY=1)", async () => {
    const join = (from: string, claim: string) =>
      request("/broker/join", {
        method: "POST",
        from,
        headers: { "content-type": "application/json", "x-forwarded-for": claim },
        body: "{}",
      });
    // JOIN_RATE_PER_MINUTE=3: three joins from 127.0.0.2 (refused as bad requests), the fourth is limited ...
    for (let i = 0; i < 3; i++) expect((await join("127.0.0.2", `198.51.100.${i}`)).status).toBe(400);
    expect((await join("127.0.0.2", "198.51.100.77")).status).toBe(429);
    // ... while another address still gets through, even when it claims to be the limited one.
    expect((await join("127.0.0.3", "127.0.0.2")).status).toBe(400);
  });

  it("carries the command line's join, WebSocket session and status hook over https and wss", async () => {
    process.env.NODE_EXTRA_CA_CERTS = path.join(dir, "cert.pem");
    try {
      const { mesh, invite } = await meshForBroker(db, `wss://localhost:${proxyPort}/broker`);
      const [ana, bo] = [procs.home(), procs.home()];
      expect(await procs.done(ana, ["join", invite.inviteLink, "--name", "Ana"])).toMatchObject({
        code: 0,
        out: expect.stringContaining(`Joined mesh ${mesh.slug}`),
      });
      expect((await procs.done(bo, ["join", invite.inviteLink, "--name", "Bo"])).code).toBe(0);
      const watch = procs.run(bo, ["watch", "--json"]);
      await until(
        () => watch.stderr().includes("connected to mesh"),
        `Bo's session through the proxy: ${watch.stderr()}`,
      );
      expect((await procs.done(ana, ["send", "through the proxy"])).code).toBe(0);
      expect((await procs.done(ana, ["hook", "set-status", "working"])).out).toContain("Status set to working");
      const lines = () =>
        watch
          .stdout()
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      await until(() => lines().some((l) => l.type === "status"), "the status at Bo");
      expect(lines()).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ type: "message", text: "through the proxy", fromName: "Ana" }),
          expect.objectContaining({ type: "status", status: "working" }),
        ]),
      );
    } finally {
      delete process.env.NODE_EXTRA_CA_CERTS;
    }
  });
});
