import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../../src/server/core/project-root";

/** Reads a secret kept in .data/, making it with `make` on first use (file mode 0600). */
function keptSecret(name: string, make: () => string): string {
  const file = path.join(PROJECT_ROOT, ".data", name);
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, make(), { mode: 0o600 });
  }
  return readFileSync(file, "utf8").trim();
}

/**
 * Defaults that make a fresh clone run without any configuration. A value already in the environment
 * always wins. AUTH_SECRET and SECRETS_KEYS are generated once and kept in .data/, so sessions and
 * sealed secrets survive restarts.
 */
export function localDefaults(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const port = env.PORT ?? "3000";
  const brokerPort = env.BROKER_PORT ?? "4000";
  const out: Record<string, string> = {
    NEXT_TELEMETRY_DISABLED: "1",
    // AUTH_URL stays unset: Auth.js answers on whatever address the user opened (localhost,
    // 127.0.0.1, a LAN name); the web server lets a client's forwarded headers through only from a
    // trusted proxy (docs/security.md).
    AUTH_TRUST_HOST: "true",
    PUBLIC_BASE_URL: `http://localhost:${port}`,
    ADMIN_EMAILS: "admin@example.com",
    PUBLIC_BROKER_URL: `ws://localhost:${brokerPort}`,
    // A local installation sends callbacks to local receivers (docs/review-engine.md, "Callbacks").
    CALLBACK_ALLOW_PRIVATE: "1",
    PORT: port,
    AUTH_SECRET: env.AUTH_SECRET ?? keptSecret("auth-secret", () => randomBytes(32).toString("base64url")),
    SECRETS_KEYS: env.SECRETS_KEYS ?? keptSecret("secrets-keys", () => `k1:${randomBytes(32).toString("base64")}`),
  };
  for (const key of Object.keys(out)) if (env[key] !== undefined) delete out[key];
  return out;
}
