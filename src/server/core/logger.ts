import pino, { type Logger } from "pino";

export type { Logger };

/** Keys whose values never reach a log line, wherever they appear in the logged object. */
const REDACT = [
  "password",
  "passwordHash",
  "token",
  "secret",
  "apiKey",
  "key",
  "ciphertext",
  "authorization",
  "cookie",
  "databaseUrl",
  "*.password",
  "*.passwordHash",
  "*.token",
  "*.secret",
  "*.apiKey",
  "*.ciphertext",
  "*.authorization",
  "*.cookie",
  "*.databaseUrl",
  "headers.authorization",
  "headers.cookie",
  'headers["x-api-key"]',
];

/** One JSON line per event on standard error, tagged with the process name. */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? "info"): Logger {
  return pino(
    {
      level,
      base: { service, pid: process.pid },
      redact: { paths: REDACT, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    pino.destination({ fd: 2, sync: true }),
  );
}

let shared: Logger | undefined;

/** The logger of the current process (created on first use, named by SERVICE_NAME or "app"). */
export function logger(): Logger {
  shared ??= createLogger(process.env.SERVICE_NAME ?? "app");
  return shared;
}
