import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { E2E_SMTP_URL } from "./mail-server";

const root = path.resolve(import.meta.dirname, "..");
// Ports and database of their own, so the suite can run while `npm start` runs.
const port = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://localhost:${port}`;
export const e2eDatabase = { port: Number(process.env.E2E_PG_PORT ?? 30349), name: "e2e" };

export default defineConfig({
  testDir: ".",
  // A real SMTP server on loopback that the web app mails to (e2e/mail-server.ts).
  globalSetup: path.join(import.meta.dirname, "mail-server.ts"),
  outputDir: path.join(root, "test-results"),
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["html", { open: "never", outputFolder: path.join(root, "playwright-report") }]],
  // Scenarios of a dozen page loads on a 2-core machine that also runs the whole product (web, broker,
  // worker, PostgreSQL) and two browsers.
  timeout: 60_000,
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    video: "off",
    locale: "en-US",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          // Debian's Chromium; Playwright's own browser download cannot run on these machines.
          executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--no-first-run",
          ],
        },
      },
    },
  ],
  webServer: {
    // scripts/start.ts, with server lines about missing translations copied for pages.spec.ts.
    command: "node --import tsx e2e/serve.ts",
    cwd: root,
    url: `${baseURL}/en`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    env: {
      PORT: String(port),
      BROKER_PORT: process.env.E2E_BROKER_PORT ?? "4300",
      WORKER_PORT: process.env.E2E_WORKER_PORT ?? "4400",
      DEMO_PLATFORM_PORT: process.env.E2E_DEMO_PLATFORM_PORT ?? "4500",
      EMBEDDED_PG_DIR: ".data/postgres-e2e",
      EMBEDDED_PG_PORT: String(e2eDatabase.port),
      EMBEDDED_PG_DATABASE: e2eDatabase.name,
      ADMIN_EMAILS: "admin@example.com",
      // Every browser test signs in from the same address; the per-e-mail limit stays at its default.
      SIGNIN_CLIENT_RATE_PER_MINUTE: "100000",
      SIGNUP_CLIENT_RATE_PER_MINUTE: "100000",
      // Every test signs up and in; scrypt at 2^15 instead of the default 2^17 keeps the suite fast on 2
      // cores (the default cost is exercised by src/server/core/password.test.ts).
      PASSWORD_SCRYPT_LOG2_N: "15",
      NEXT_TELEMETRY_DISABLED: "1",
      // A production start's /metrics is closed without a token (docs/observability.md); metrics.spec.ts sends it.
      METRICS_TOKEN: process.env.E2E_METRICS_TOKEN ?? "e2e-metrics-token-0123456789",
      SMTP_URL: E2E_SMTP_URL,
    },
  },
});
