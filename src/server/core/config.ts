import { z } from "zod";

/** A DATABASE_URL as Document 2 fixes it: required where asked for, and beginning with postgres://. */
export const ZDatabaseUrl = z
  .string({ error: "is required" })
  .min(1, { error: "is required (it is set but empty)", abort: true })
  .refine((v) => v.startsWith("postgres://"), { error: "must begin with postgres://" });

/** An integer environment value with bounds (environment values arrive as strings). */
export function envInt(defaultValue: number, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return defaultValue;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: "custom", message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });
}

/** A TCP port from the environment. */
export const envPort = (defaultValue: number) => envInt(defaultValue, 1, 65535);

/** A boolean environment flag ("1", "true", "yes" are true). */
export function envBool(defaultValue: boolean) {
  return z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === "" ? defaultValue : /^(1|true|yes|on)$/i.test(v)));
}

export class ConfigError extends Error {
  constructor(readonly issues: { variable: string; message: string }[]) {
    super(`Invalid configuration: ${issues.map((i) => `${i.variable} ${i.message}`).join("; ")}`);
    this.name = "ConfigError";
  }
}

/** Parses the environment with a zod object schema; throws ConfigError naming every bad variable. */
export function parseConfig<S extends z.ZodObject>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => ({
      variable: String(issue.path[0] ?? "environment"),
      message: issue.message,
    })),
  );
}

/**
 * Parses the configuration of a process at start-up; on a bad value prints one line naming the
 * variable (no stack trace, never the value, which may hold a password) and exits non-zero.
 */
export function loadConfigOrExit<S extends z.ZodObject>(
  schema: S,
  processName: string,
  env: Record<string, string | undefined> = process.env,
): z.output<S> {
  try {
    return parseConfig(schema, env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${processName}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
