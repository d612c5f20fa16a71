// Integration-test helpers of the client: a broker with temporary homes and clients for a test file, a
// mesh whose invites point at it, a pausable TCP proxy, and a scan of every table for a text.
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { Db } from "../../src/server/core/db";
import { createInvite } from "../../src/server/services/invites/create-invite";
import { freePort } from "../../src/test/helpers";
import { ctxOf, makeMesh, makeUser } from "../../src/test/mesh-fixtures";
import { settingsWith } from "../../src/server/services/context";
import { ZCreateInviteInput } from "../../src/server/services/invites/create-invite.schema";
import { startBroker, type TestBroker } from "../test-support";
import { ConfigStore } from "./config-store";
import { MeshClient } from "./mesh-client";

/**
 * For one test file: a broker started before its tests, and temporary client homes and clients that
 * are closed and removed after them. `broker` is set once the file's tests run.
 */
export function clientHarness(db: Db, env: Record<string, string> = {}) {
  const homes: string[] = [];
  const clients: MeshClient[] = [];
  const harness = {
    broker: undefined as unknown as TestBroker,
    /** A config store in a new temporary home. */
    store(): ConfigStore {
      const home = mkdtempSync(path.join(os.tmpdir(), "mesh-client-"));
      homes.push(home);
      return new ConfigStore(path.join(home, "cfg"));
    },
    /** A client closed after the file's tests. */
    client(...args: ConstructorParameters<typeof MeshClient>): MeshClient {
      const c = new MeshClient(...args);
      clients.push(c);
      return c;
    },
  };
  beforeAll(async () => {
    harness.broker = await startBroker(db, { MESSAGE_ACK_TIMEOUT_MS: "300", JOIN_RATE_PER_MINUTE: "1000", ...env });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await harness.broker?.close();
    await db.$disconnect();
    for (const h of homes) rmSync(h, { recursive: true, force: true });
  });
  return harness;
}

/** A mesh and an invite whose broker_url is `brokerWs` (the web app would write PUBLIC_BROKER_URL). */
export async function meshForBroker(db: Db, brokerWs: string, opts: { maxUses?: number } = {}) {
  const owner = await makeUser(db);
  const mesh = await makeMesh(db, owner);
  const ctx = ctxOf(db, owner);
  const deps = { ...ctx, settings: settingsWith(ctx.settings, { brokerUrl: brokerWs }) };
  const invite = await createInvite(deps, ZCreateInviteInput.parse({ meshId: mesh.id, ...opts }));
  return { owner, mesh, invite, deps };
}

/** A TCP proxy to a local port that can swallow what clients send (hold) and cut every connection. */
export async function pausableProxy(targetPort: number) {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let held = false;
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: "127.0.0.1", port: targetPort });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => sockets.delete(s));
    }
    client.on("data", (chunk) => {
      if (!held) upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port,
    hold: () => void (held = true),
    release: () => void (held = false),
    cut: () => sockets.forEach((s) => s.destroy()),
    close: () => new Promise<void>((resolve) => (sockets.forEach((s) => s.destroy()), server.close(() => resolve()))),
  };
}

/**
 * Every row of every table of the public schema, as text, searched for each needle (the text itself
 * and its hex, since bytea columns print as hex). Returns "table: count" for every hit.
 */
export async function tablesContaining(db: Db, needles: string[]): Promise<string[]> {
  const tables = await db.$queryRaw<
    { table_name: string }[]
  >`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
  const hits: string[] = [];
  for (const { table_name: name } of tables) {
    const quoted = `"${name.replace(/"/g, '""')}"`;
    for (const needle of needles) {
      const rows = await db.$queryRawUnsafe<{ n: bigint }[]>(
        `SELECT count(*) AS n FROM ${quoted} t WHERE strpos(t::text, $1) > 0`,
        needle,
      );
      const n = Number(rows[0]?.n ?? 0);
      if (n > 0) hits.push(`${name}: ${n}`);
    }
  }
  return hits;
}
