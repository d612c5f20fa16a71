// The deployment kit (deploy/) as data, for the tests that keep it true to the code:
// scripts/deploy.test.ts, scripts/deploy-entry.test.ts and scripts/deploy-proxy.integration.test.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
// `yaml` comes with vitest (vite) and trpc-to-openapi; it is not a direct dependency of the project.
import { parse } from "yaml";
import { PROJECT_ROOT } from "../../src/server/core/project-root";

export const DEPLOY_DIR = path.join(PROJECT_ROOT, "deploy");

/** A file of the kit as text. */
export const deployFile = (name: string) => readFileSync(path.join(DEPLOY_DIR, name), "utf8");

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
  ports?: string[];
  volumes?: string[];
  init?: boolean;
}

export interface Compose {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const REFERENCE = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g;

/**
 * Compose's interpolation of one value: `${V}`, `${V:-default}`, `${V-default}`, `${V:?message}`,
 * `${V?message}` and `$$`. An unset variable without a default is empty, as compose makes it.
 */
export function interpolate(text: string, vars: Record<string, string | undefined>): string {
  return text.replace(REFERENCE, (whole, name: string | undefined, op: string | undefined, arg: string | undefined) => {
    if (whole === "$$") return "$";
    const value = vars[name ?? ""];
    const empty = value === undefined || (op?.startsWith(":") === true && value === "");
    if (op?.endsWith("?") && empty) throw new Error(`${name}: ${arg}`);
    if (op?.endsWith("-") && empty) return arg ?? "";
    return value ?? "";
  });
}

/** The names of every variable deploy/compose.yaml interpolates. */
export function composeVariables(): string[] {
  return [
    ...new Set(
      [...deployFile("compose.yaml").matchAll(REFERENCE)].map((m) => m[1]).filter((n): n is string => Boolean(n)),
    ),
  ].sort();
}

function interpolateAll(value: unknown, vars: Record<string, string | undefined>): unknown {
  if (typeof value === "string") return interpolate(value, vars);
  if (Array.isArray(value)) return value.map((v) => interpolateAll(v, vars));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateAll(v, vars)]));
  }
  return value;
}

/** deploy/compose.yaml with its anchors merged and its variables filled from `vars` (compose's .env). */
export function readCompose(vars: Record<string, string | undefined>): Compose {
  const raw = parse(deployFile("compose.yaml"), { merge: true }) as Compose;
  return interpolateAll(raw, vars) as Compose;
}

/** The process a service of the product's image runs: its command's first word (deploy/entrypoint.sh's name). */
export function processOf(service: ComposeService): string | undefined {
  return service.image?.startsWith("review-mesh:") ? service.command?.[0] : undefined;
}

/** The environment of deploy/.env.example, names and values. */
export function envExample(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of deployFile(".env.example").split("\n")) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m?.[1]) out[m[1]] = m[2] ?? "";
  }
  return out;
}

/** Sample values for deploy/.env as an operator would fill it in (never used outside the tests). */
export const SAMPLE_ENV: Readonly<Record<string, string>> = {
  DOMAIN: "mesh.example.org",
  TLS: "ops@example.org",
  POSTGRES_PASSWORD: "sample-password",
  AUTH_SECRET: "sample-auth-secret-0123456789abcdef0123456789",
  SECRETS_KEYS: `ksample:${Buffer.alloc(32, 9).toString("base64")}`,
  METRICS_TOKEN: "sample-metrics-token-0123456789",
  ADMIN_EMAILS: "ops@example.org",
};
