import type { ChildSpec } from "./supervisor";
import { tsEntry } from "./supervisor";

/** The demo reviews platform's process (src/demo-platform/main.ts). */
export function demoPlatformSpec(dev: boolean): ChildSpec {
  return { label: "platform", ...tsEntry("src/demo-platform/main.ts", dev) };
}

/**
 * Gives the children one view of the platform: its port (DEMO_PLATFORM_PORT, default 4200) and, unless
 * set, the base URL the scrapers use (DEMO_PLATFORM_URL). Returns the health URL.
 */
export function demoPlatformEnv(env: NodeJS.ProcessEnv): string {
  env.DEMO_PLATFORM_PORT ??= "4200";
  env.DEMO_PLATFORM_URL ??= `http://127.0.0.1:${env.DEMO_PLATFORM_PORT}`;
  return `http://127.0.0.1:${env.DEMO_PLATFORM_PORT}/health`;
}

/** Polls the health URL until it answers 200; rejects after the time limit. */
export async function waitForHealthy(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
