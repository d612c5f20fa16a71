import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../../src/server/core/database/ensure";

/**
 * Defaults that make a fresh clone run without any configuration. A value already in the environment
 * always wins. AUTH_SECRET is generated once and kept in .data/ so sessions survive restarts.
 */
export function localDefaults(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const port = env.PORT ?? "3000";
  const out: Record<string, string> = {
    NEXT_TELEMETRY_DISABLED: "1",
    AUTH_TRUST_HOST: "true",
    AUTH_URL: `http://localhost:${port}`,
    PUBLIC_BASE_URL: `http://localhost:${port}`,
    ADMIN_EMAILS: "admin@example.com",
    PORT: port,
  };
  if (!env.AUTH_SECRET) {
    const file = path.join(PROJECT_ROOT, ".data", "auth-secret");
    if (!existsSync(file)) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
    }
    out.AUTH_SECRET = readFileSync(file, "utf8").trim();
  }
  for (const key of Object.keys(out)) if (env[key] !== undefined && key !== "AUTH_SECRET") delete out[key];
  return out;
}
