/**
 * Issue 41, attack 2: one signed-in user sends tRPC batches of `my.joinMesh` calls, each with an invite
 * signature to check, while a probe measures how long the web process takes to answer `GET /api/health`.
 * The web process is a child process serving the real handlers over a real HTTP listener (the /api/trpc
 * route's trpcRoute, the /api/health route), on the bench database; the attacker and the probe are this
 * process. Two servers in the same run:
 *   - old path: the route as it was (no batch bound, no join limit) and the invite checked by tweetnacl's
 *     pure-JavaScript verify, as verifyInviteToken did, before the join;
 *   - defended: today's route (at most 20 calls a batch, USER_JOIN_RATE_PER_MINUTE, Node's crypto); the
 *     attacker sends 800-call batches (refused) and full 20-call batches, back to back.
 * Each server is probed first without attack (its baseline), then under attack. Prints the probe's
 * median, p99 and worst latency (the worst stall); goal: worst stall under attack with the defences <= 1 s.
 *   npx tsx bench/web-join.ts [attackSeconds=10] [batch=800]
 * (BENCH_PG_DIR / BENCH_PG_PORT choose the embedded database, as for the other benches.)
 */
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import nacl from "tweetnacl";
import { benchDatabase, fmt, percentile } from "./lib";

const SERVE = process.argv[2] === "--serve";

process.env.SECRETS_KEYS ??= `kbench:${Buffer.alloc(32, 5).toString("base64")}`;
process.env.AUTH_SECRET ??= "bench-web-join-auth-secret-0123456789abcdef";
process.env.LOG_LEVEL ??= "warn";

if (SERVE) await serve(process.argv[3] === "legacy" ? "legacy" : "defended");
else await drive();

/** The web process: the real route handlers on a real HTTP listener; prints its port. */
async function serve(mode: "legacy" | "defended") {
  const user = JSON.parse(process.env.BENCH_USER ?? "null") as import("../src/server/api/trpc").SessionUser;
  const { GET: health } = await import("../src/app/api/health/route");
  const route =
    mode === "defended"
      ? (await import("../src/server/api/trpc-route")).trpcRoute(async () => user)
      : await legacyRoute(user);
  const server = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const request = new Request(`http://127.0.0.1${req.url ?? "/"}`, {
        method: req.method,
        headers: Object.entries(req.headers).flatMap(([k, v]) =>
          v === undefined
            ? []
            : Array.isArray(v)
              ? v.map((x): [string, string] => [k, x])
              : [[k, v] as [string, string]],
        ),
        body: body.length ? body : undefined,
      });
      const response = req.url?.startsWith("/api/health") ? await health() : await route(request);
      const bytes = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(bytes);
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  server.listen(0, "127.0.0.1", () => console.log(`listening ${(server.address() as AddressInfo).port}`));
}

/**
 * The /api/trpc route as it was before issue 41 (guard, then tRPC with no batch bound) over a router whose
 * my.joinMesh is the old one: no per-user limit, the invite's signature checked by tweetnacl, then the join.
 */
async function legacyRoute(user: import("../src/server/api/trpc").SessionUser) {
  const { fetchRequestHandler } = await import("@trpc/server/adapters/fetch");
  const { createTRPCRouter, protectedProcedure, createContext } = await import("../src/server/api/trpc");
  const { ZUserJoinInput } = await import("../src/server/services/join/join-as-user.schema");
  const { joinAsUser } = await import("../src/server/services/join/join-as-user");
  const { canonicalInviteBytes, decodeInviteToken } = await import("../src/server/core/invites");
  const { tryFromBase64Url } = await import("../src/server/core/encoding");
  const { guardRequest } = await import("../src/server/http/guard");
  const { appEnv, trustedOrigins } = await import("../src/server/env");
  const router = createTRPCRouter({
    my: createTRPCRouter({
      joinMesh: protectedProcedure.input(ZUserJoinInput).mutation(({ ctx, input }) => {
        // verifyInviteToken's check before issue 41 (the join then checks again, on Node's crypto: ~0.1 ms).
        const decoded = decodeInviteToken(input.token);
        if (decoded.ok) {
          const sig = tryFromBase64Url(decoded.payload.signature, 64);
          const key = tryFromBase64Url(decoded.payload.owner_pubkey, 32);
          if (sig && key) nacl.sign.detached.verify(canonicalInviteBytes(decoded.payload), sig, key);
        }
        return joinAsUser(ctx.service, input);
      }),
    }),
  });
  return async (incoming: Request) => {
    const guarded = await guardRequest(incoming, {
      maxBytes: appEnv().MAX_REQUEST_BYTES,
      allowedOrigins: trustedOrigins(),
    });
    if ("refusal" in guarded) return guarded.refusal;
    const req = guarded.request;
    return fetchRequestHandler({
      endpoint: "/api/trpc",
      req,
      router,
      createContext: () => createContext({ resolveUser: async () => user, headers: req.headers }),
    });
  };
}

/** This process: the database and its rows, then each server probed without and with the attack. */
async function drive() {
  const attackSeconds = Number(process.argv[2] ?? 10);
  const batch = Number(process.argv[3] ?? 800);
  const ready = await benchDatabase("bench_web_join");
  process.env.DATABASE_URL = ready.url;
  const { createDb } = await import("../src/server/core/db");
  const { serviceContext } = await import("../src/server/services/context");
  const { VISITOR } = await import("../src/server/services/actor");
  const { registerUser } = await import("../src/server/services/users/register-user");
  const { createMesh } = await import("../src/server/services/meshes/create-mesh");
  const { ZCreateMeshInput } = await import("../src/server/services/meshes/create-mesh.schema");
  const { createInvite } = await import("../src/server/services/invites/create-invite");
  const { ZCreateInviteInput } = await import("../src/server/services/invites/create-invite.schema");
  const { canonicalInviteBytes, decodeInviteToken } = await import("../src/server/core/invites");
  const { fromBase64Url } = await import("../src/server/core/encoding");
  const { ed25519Verify } = await import("../src/server/core/crypto/ed25519");
  const db = createDb(ready.url, { max: 4 });
  const tag = Date.now().toString(36);
  const person = async (name: string) => {
    const email = `${name}-${tag}@bench.test`;
    const made = await registerUser(serviceContext(VISITOR, { db }), { name, email, password: "a-long-password" });
    return { id: made.id, email, name, isAdmin: false };
  };
  const owner = await person("owner");
  const ownerCtx = serviceContext({ kind: "user", userId: owner.id, isAdmin: false }, { db });
  const mesh = await createMesh(ownerCtx, ZCreateMeshInput.parse({ name: "Bench", slug: `bench-${tag}` }));
  const { token } = await createInvite(ownerCtx, ZCreateInviteInput.parse({ meshId: mesh.id }));

  // One signature check, each way, on this machine.
  const decoded = decodeInviteToken(token);
  if (!decoded.ok) throw new Error("bench invite does not decode");
  const bytes = canonicalInviteBytes(decoded.payload);
  const sig = fromBase64Url(decoded.payload.signature);
  const key = fromBase64Url(decoded.payload.owner_pubkey);
  const perVerify = (verify: () => boolean, n: number) => {
    for (let i = 0; i < 5; i++) verify();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) if (!verify()) throw new Error("verify failed");
    return (performance.now() - t0) / n;
  };
  const naclMs = perVerify(() => nacl.sign.detached.verify(bytes, sig, key), 50);
  const nodeMs = perVerify(() => ed25519Verify(bytes, sig, key), 2_000);
  console.log(`one invite signature check: tweetnacl ${naclMs.toFixed(2)} ms, node:crypto ${nodeMs.toFixed(3)} ms`);
  console.log(`  (${batch} checks: tweetnacl ${fmt(naclMs * batch)}, node:crypto ${fmt(nodeMs * batch)})\n`);

  const rows: string[][] = [];
  for (const mode of ["legacy", "defended"] as const) {
    // A fresh attacker per server: its join bucket starts full.
    const attacker = await person(`attacker-${mode}`);
    const server = await startServer(mode, attacker, ready.url);
    try {
      const base = `http://127.0.0.1:${server.port}`;
      // Warm-up: the first answers open the database connections and compile the routes.
      await probe(base, async () => new Promise((r) => setTimeout(r, 1_000)));
      const quiet = await probe(base, async () => new Promise((r) => setTimeout(r, 3_000)));
      const statuses = new Map<number, number>();
      const sizes = mode === "legacy" ? [batch] : [batch, 20];
      const attack = await probe(base, () => attackFor(base, token, sizes, attackSeconds, statuses));
      const label =
        mode === "legacy" ? `old path (${batch}/batch, tweetnacl)` : `defended (${batch} refused, 20/batch)`;
      rows.push(row(`${label}, no attack`, quiet, ""));
      rows.push(row(`${label}, under attack`, attack, [...statuses].map(([status, n]) => `${n}×${status}`).join(" ")));
    } finally {
      await server.stop();
    }
  }
  const head = ["probe GET /api/health", "probes", "median", "p99", "worst stall", "attack answers"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  console.log(line(head));
  for (const r of rows) console.log(line(r));
  const worstDefended = Number(rows[3]?.[4]?.replace(" ms", "") ?? NaN);
  const worstLegacy = Number(rows[1]?.[4]?.replace(" ms", "") ?? NaN);
  console.log(
    `\nworst stall under attack: old path ${fmt(worstLegacy)}, defended ${fmt(worstDefended)} ` +
      `(${(worstLegacy / worstDefended).toFixed(0)}× less); goal <= 1000 ms: ${worstDefended <= 1_000 ? "met" : "NOT met"}`,
  );
  await db.$disconnect();
  if (ready.embedded?.owned) await ready.embedded.stop();
}

function row(label: string, latencies: number[], answers: string): string[] {
  return [
    label,
    String(latencies.length),
    fmt(percentile(latencies, 50)),
    fmt(percentile(latencies, 99)),
    fmt(Math.max(...latencies)),
    answers,
  ];
}

/** Probes `GET /api/health` one at a time (20 ms apart) until `during` settles; the latencies in ms. */
async function probe(base: string, during: () => Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  let done = false;
  const work = during().finally(() => (done = true));
  while (!done) {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/health`);
    await res.arrayBuffer();
    latencies.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  await work;
  return latencies;
}

/** Two connections of one user sending batches of joinMesh back to back for `seconds` (then the last ones finish). */
async function attackFor(base: string, token: string, sizes: number[], seconds: number, statuses: Map<number, number>) {
  const until = performance.now() + seconds * 1_000;
  const one = async () => {
    for (let i = 0; performance.now() < until; i++) {
      const n = sizes[i % sizes.length]!;
      const body = Object.fromEntries(Array.from({ length: n }, (_, k) => [String(k), { json: { token } }]));
      const res = await fetch(`${base}/api/trpc/${Array.from({ length: n }, () => "my.joinMesh").join(",")}?batch=1`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  };
  await Promise.all([one(), one()]);
}

/** The web process for `mode`, as a child (`node --import tsx bench/web-join.ts --serve <mode>`). */
async function startServer(
  mode: "legacy" | "defended",
  user: { id: string; email: string; name: string; isAdmin: boolean },
  databaseUrl: string,
): Promise<{ port: number; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", import.meta.filename, "--serve", mode], {
    // The old path's batches time out their transactions by the hundred: its log would bury the figures.
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      BENCH_USER: JSON.stringify(user),
      NODE_ENV: "production",
      LOG_LEVEL: "fatal",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`bench server exited (${code})`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const m = /^listening (\d+)$/.exec(line);
      if (m) resolve(Number(m[1]));
    });
  });
  return {
    port,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
