// The deployment kit (deploy/) against the code it deploys: compose.yaml's processes, environment,
// health checks and pools, the proxy's routes and the Dockerfile's stages. docs/deploy.md.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { z } from "zod";
import { ZBrokerConfig } from "../broker/config";
import { WS_PATH } from "../broker/protocol/ws-auth";
import { PROJECT_ROOT } from "../src/server/core/project-root";
import { ZDatabaseEnv } from "./database/ensure";
import { ZDemoPlatformConfig } from "../src/demo-platform/config";
import { ZAppEnv } from "../src/server/env";
import { ZReviewSettings } from "../src/server/queue/settings";
import { ZScraperConfig } from "../src/server/scrapers/config";
import { ZWebServerConfig } from "../src/web/config";
import { ZWorkerConfig } from "../src/worker/config";
import {
  composeVariables,
  deployFile,
  envExample,
  processOf,
  readCompose,
  SAMPLE_ENV,
  type ComposeService,
} from "./lib/deploy-kit";

const source = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), "utf8");

type Schema = z.ZodObject;
/** The schemas each process validates its environment with at start-up. */
const SCHEMAS: Record<string, Schema[]> = {
  web: [ZAppEnv, ZReviewSettings],
  broker: [ZBrokerConfig],
  worker: [ZWorkerConfig, ZReviewSettings, ZScraperConfig],
  platform: [ZDemoPlatformConfig],
  migrate: [ZDatabaseEnv],
};
const keysOf = (p: string) => [
  ...(SCHEMAS[p] ?? []).flatMap((s) => Object.keys(s.shape)),
  ...(p === "web" ? Object.keys(ZWebServerConfig.shape) : []),
];
const ALL_SCHEMA_KEYS = new Set(Object.keys(SCHEMAS).flatMap(keysOf));

/** The README's Configuration table: each variable with the processes in its "used by" column. */
function readmeVariables(): Map<string, string[]> {
  const section = /## Configuration\n([\s\S]*?)\n## /.exec(source("README.md"))?.[1] ?? "";
  const out = new Map<string, string[]>();
  for (const row of section.split("\n").filter((l) => l.startsWith("| `"))) {
    const cells = row.split("|").map((c) => c.trim());
    const names = [...(cells[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1] ?? "");
    for (const name of names)
      out.set(
        name,
        (cells[3] ?? "").split(",").map((u) => u.trim()),
      );
  }
  return out;
}

const compose = readCompose(SAMPLE_ENV);
const services = Object.entries(compose.services);
const APP = ["web", "broker", "worker"] as const;
const PORT_VAR = { web: "PORT", broker: "BROKER_PORT", worker: "WORKER_PORT", platform: "DEMO_PLATFORM_PORT" } as const;
const byProcess = (p: string) => services.filter(([, s]) => processOf(s) === p);
const envOf = (s: ComposeService) => s.environment ?? {};

/** The port a service's process listens on: its variable in compose, else the schema's default. */
function portOf(p: keyof typeof PORT_VAR, s: ComposeService): number {
  const name = PORT_VAR[p];
  if (p === "web") return Number(envOf(s)[name] ?? 3000);
  const schema = (SCHEMAS[p] ?? []).find((x) => name in x.shape);
  return (schema?.shape[name] as z.ZodType).parse(envOf(s)[name]) as number;
}

describe("compose.yaml", () => {
  it("runs two of each process, one migration service and one proxy", () => {
    for (const p of APP)
      expect(
        byProcess(p).map(([n]) => n),
        p,
      ).toHaveLength(2);
    expect(byProcess("migrate")).toHaveLength(1);
    expect(compose.services.proxy?.image).toMatch(/^caddy:/);
    expect(compose.services.postgres?.image).toMatch(/^postgres:/);
  });

  it("sets only variables the process knows, every one it requires, and values its schemas accept", () => {
    const readme = readmeVariables();
    expect(readme.size).toBeGreaterThan(100);
    for (const [name, service] of services) {
      const p = processOf(service);
      if (!p) continue;
      const env = envOf(service);
      const own = new Set(keysOf(p));
      for (const variable of Object.keys(env)) {
        const usedBy = readme.get(variable) ?? [];
        expect(
          usedBy.includes(p) || usedBy.includes("all"),
          `${name}: ${variable} is not in the README's Configuration for ${p}`,
        ).toBe(true);
        if (ALL_SCHEMA_KEYS.has(variable))
          expect(own.has(variable), `${name}: ${p} does not read ${variable}`).toBe(true);
      }
      for (const schema of SCHEMAS[p] ?? []) {
        const required = schema.safeParse({}).error?.issues.map((i) => String(i.path[0])) ?? [];
        for (const variable of required) expect(env[variable], `${name} needs ${variable}`).toBeTruthy();
        const parsed = schema.safeParse(env);
        expect(parsed.error?.issues.map((i) => `${name}: ${String(i.path[0])} ${i.message}`) ?? []).toEqual([]);
      }
      if (p !== "platform")
        expect(env.DATABASE_URL, `${name} needs DATABASE_URL`).toMatch(/^postgres:\/\/app:.+@postgres:5432\/app$/);
    }
  });

  it("documents every variable it reads in deploy/.env.example, with no value filled in for a secret", () => {
    const example = envExample();
    expect(Object.keys(example).sort()).toEqual(composeVariables());
    for (const secret of ["POSTGRES_PASSWORD", "AUTH_SECRET", "SECRETS_KEYS", "METRICS_TOKEN"])
      expect(example[secret], secret).toBe("");
    // The required ones stop compose with a message rather than start a process without them.
    for (const required of ["DOMAIN", "TLS", "POSTGRES_PASSWORD", "AUTH_SECRET", "SECRETS_KEYS", "METRICS_TOKEN"]) {
      expect(() => readCompose({ ...SAMPLE_ENV, [required]: "" }), required).toThrow(required);
    }
  });

  it("gives the web app and the broker their public addresses and the one proxy in front", () => {
    for (const [name, s] of byProcess("web")) {
      const env = envOf(s);
      expect(env.AUTH_URL, name).toBe("https://mesh.example.org");
      expect(env.PUBLIC_BASE_URL, name).toBe("https://mesh.example.org");
      expect(env.PUBLIC_BROKER_URL, name).toBe("wss://mesh.example.org/broker");
    }
    for (const [name, s] of [...byProcess("web"), ...byProcess("broker")]) expect(envOf(s).TRUST_PROXY, name).toBe("1");
    const nodeIds = byProcess("broker").map(([, s]) => envOf(s).BROKER_NODE_ID);
    expect(new Set(nodeIds).size).toBe(2);
    expect(nodeIds.every(Boolean)).toBe(true);
    // The brokers link to each other on the compose network (docs/protocol.md, "Links between nodes").
    for (const [name, s] of byProcess("broker"))
      expect(envOf(s).BROKER_PEER_URL, name).toBe(`ws://${name}:${portOf("broker", s)}`);
    // Only the proxy is reachable from outside: TRUST_PROXY=1 believes whoever connects directly.
    for (const [name, s] of services) if (name !== "proxy") expect(s.ports, name).toBeUndefined();
    expect(compose.services.proxy?.ports).toEqual(["80:80", "443:443", "443:443/udp"]);
    expect(envOf(compose.services.proxy ?? {}).SITE_ADDRESS).toBe("mesh.example.org");
  });

  it("checks each process on /ready of its own port, and starts them after the migrations", () => {
    for (const p of APP) {
      for (const [name, s] of byProcess(p)) {
        const url = new URL(s.healthcheck?.test.at(-1) ?? "");
        expect(s.healthcheck?.test.slice(0, 3), name).toEqual(["CMD", "node", "deploy/healthcheck.mjs"]);
        expect(`${url.hostname}:${url.port}${url.pathname}`, name).toBe(`127.0.0.1:${portOf(p, s)}/ready`);
        expect(s.depends_on, name).toEqual({ migrate: { condition: "service_completed_successfully" } });
        expect(s.init, name).toBe(true);
      }
    }
    const platform = byProcess("platform")[0]?.[1];
    expect(platform?.healthcheck?.test.at(-1)).toBe(`http://127.0.0.1:${portOf("platform", platform ?? {})}/health`);
    expect(envOf(platform ?? {}).DEMO_PLATFORM_HOST).toBe("0.0.0.0");
    expect(compose.services.migrate?.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    expect(compose.services.postgres?.healthcheck?.test).toEqual(["CMD", "pg_isready", "-U", "app", "-d", "app"]);
    expect(compose.services.postgres?.volumes).toEqual(["pgdata:/var/lib/postgresql"]);
  });

  it("points the proxy at every web process and every broker on their ports", () => {
    const env = envOf(compose.services.proxy ?? {});
    const pool = (p: "web" | "broker") =>
      byProcess(p)
        .map(([name, s]) => `${name}:${portOf(p, s)}`)
        .join(" ");
    expect(env.WEB_UPSTREAMS).toBe(pool("web"));
    expect(env.BROKER_UPSTREAMS).toBe(pool("broker"));
    expect(compose.services.proxy?.volumes).toContain("./Caddyfile:/etc/caddy/Caddyfile:ro");
  });

  it("makes every process require METRICS_TOKEN, and its Prometheus configuration send it to each of them", () => {
    for (const p of APP)
      for (const [name, s] of byProcess(p)) expect(envOf(s).METRICS_TOKEN, name).toBe(SAMPLE_ENV.METRICS_TOKEN);
    const prometheus = parse(deployFile("prometheus.yml")) as {
      scrape_configs: {
        authorization?: { type?: string; credentials_file?: string };
        static_configs: { targets: string[] }[];
      }[];
    };
    const scraped: string[] = [];
    for (const job of prometheus.scrape_configs) {
      expect(job.authorization).toEqual({ type: "Bearer", credentials_file: "/etc/prometheus/metrics-token" });
      scraped.push(...job.static_configs.flatMap((c) => c.targets));
    }
    const all = APP.flatMap((p) => byProcess(p).map(([name, s]) => `${name}:${portOf(p, s)}`));
    expect(scraped.sort()).toEqual(all.sort());
  });

  it("leaves PostgreSQL room for every pool of every process (docs/deploy.md, Connection pools)", () => {
    const num = (s: ComposeService, name: string, fallback: number) => Number(envOf(s)[name] ?? fallback);
    const need = (p: string, s: ComposeService): number => {
      if (p === "web") return num(s, "DB_POOL_MAX", 10);
      if (p === "broker") return num(s, "DB_POOL_MAX", 10) + num(s, "BROKER_DB_POOL_MAX", 10) + 3;
      if (p === "worker")
        return (
          num(s, "WORKER_CONCURRENCY", 4) +
          num(s, "CALLBACK_CONCURRENCY", 4) +
          num(s, "PIPELINE_CONCURRENCY", 1) +
          2 +
          1
        );
      return p === "migrate" ? 5 : 0;
    };
    const total = services.reduce((sum, [, s]) => sum + need(processOf(s) ?? "", s), 0);
    const max = Number(/max_connections=(\d+)/.exec((compose.services.postgres?.command ?? []).join(" "))?.[1]);
    // Headroom for PostgreSQL's reserved superuser slots, a backup and an operator's psql.
    expect(total + 10).toBeLessThanOrEqual(max);
    expect(deployFile("../docs/deploy.md")).toContain(`${total} connections`);
  });
});

describe("Caddyfile", () => {
  const caddyfile = deployFile("Caddyfile");
  const matcher = (name: string) =>
    (new RegExp(`^\\s*@${name} path (.+)$`, "m").exec(caddyfile)?.[1] ?? "").split(/\s+/);

  it("routes every public route of the broker under /broker, and no internal one", () => {
    const routes = [...source("broker/http/routes.ts").matchAll(/url\.pathname === "(\/[^"]*)"/g)].map(
      (m) => m[1] ?? "",
    );
    const internal = new Set(["/metrics", "/ready"]);
    const publicRoutes = [...routes.filter((r) => !internal.has(r)), WS_PATH].sort();
    expect(routes).toContain("/join");
    expect(matcher("broker").sort()).toEqual(publicRoutes.map((r) => `/broker${r}`));
    expect(caddyfile).toMatch(
      /handle @broker \{\n\s+uri strip_prefix \/broker\n\s+reverse_proxy \{\$BROKER_UPSTREAMS\} \{\n\s+import pool\n/,
    );
    expect(caddyfile).toMatch(/\n\thandle \{\n\s+reverse_proxy \{\$WEB_UPSTREAMS\} \{\n\s+import pool\n/);
    expect(matcher("internal").sort()).toEqual(["/broker", "/broker/*", "/metrics", "/ready"]);
    // The links between broker nodes are theirs alone: /broker/cluster falls under @internal.
    expect(matcher("broker")).not.toContain("/broker/cluster");
  });

  it("checks upstreams on /ready and takes its certificate settings from TLS", () => {
    const pool = /\(pool\) \{([\s\S]*?)\n\}/.exec(caddyfile)?.[1] ?? "";
    expect(pool).toMatch(/^\s*health_uri \/ready$/m);
    expect(pool).toMatch(/^\s*lb_try_duration \d+s$/m);
    expect(caddyfile).toMatch(/^\{\$SITE_ADDRESS\} \{\n\ttls \{\$TLS\}$/m);
  });
});

describe("Dockerfile", () => {
  const dockerfile = deployFile("Dockerfile");
  const stages = dockerfile.split(/^(?=FROM )/m).slice(1);
  const final = stages.at(-1) ?? "";

  it("builds in stages with the commands CI uses, and runs as the node user through the entry point", () => {
    expect(stages.map((s) => /^FROM \S+ AS (\S+)/.exec(s)?.[1])).toEqual(["deps", "build", "runtime"]);
    const install = /^RUN (npm install .*)$/m.exec(stages[0] ?? "")?.[1];
    expect(source(".ci/run")).toContain(`\n${install}\n`);
    expect(stages[1]).toMatch(/&& npm run build \\\n/);
    expect(stages[1]).toMatch(/npm prune --omit=dev/);
    expect(final).toMatch(/^USER node$/m);
    expect(final).toMatch(/^WORKDIR \/app$/m);
    expect(final).toMatch(/^ENTRYPOINT \["\/app\/deploy\/entrypoint\.sh"\]$/m);
    expect(final).toMatch(/^CMD \["web"\]$/m);
  });

  it("uses the Node major of package.json's engines and is what compose builds", () => {
    const engines = (JSON.parse(source("package.json")) as { engines: { node: string } }).engines.node;
    const major = /^>=(\d+)\./.exec(engines)?.[1];
    expect(dockerfile).toMatch(new RegExp(`^ARG NODE_IMAGE=node:${major}-bookworm-slim$`, "m"));
    for (const [name, s] of services.filter(([, x]) => x.build)) {
      expect(path.resolve(PROJECT_ROOT, "deploy", s.build?.context ?? ""), name).toBe(path.resolve(PROJECT_ROOT));
      expect(s.build?.dockerfile, name).toBe("deploy/Dockerfile");
    }
    const ignored = deployFile("Dockerfile.dockerignore").split("\n");
    for (const entry of [".git", "**/node_modules", ".next", ".data", "src/generated", "**/.env"])
      expect(ignored, entry).toContain(entry);
  });
});
