import { describe, expect, it } from "vitest";
import { freePort, portOpen, spawnTsx, waitForHttp } from "@/test/helpers";

describe("demo platform process", () => {
  it("listens on DEMO_PLATFORM_PORT, answers /health and stops on SIGTERM", async () => {
    const port = await freePort();
    const run = spawnTsx("src/demo-platform/main.ts", [], {
      DEMO_PLATFORM_PORT: String(port),
      DEMO_PLATFORM_PLACES: "5",
    });
    try {
      const res = await waitForHttp(`http://127.0.0.1:${port}/health`);
      expect(await res.json()).toMatchObject({ status: "ok", places: 8, seed: 42 });
      expect(run.output()).toMatch(/"event":"listening"/);
    } finally {
      run.child.kill("SIGTERM");
    }
    expect(await run.exited).toBe(0);
    expect(await portOpen(port)).toBe(false);
  });

  it("stops with one line naming a bad variable", async () => {
    const run = spawnTsx("src/demo-platform/main.ts", [], { DEMO_PLATFORM_ERROR_RATE: "2" });
    expect(await run.exited).toBe(1);
    expect(run.output().trim()).toBe(
      "platform: Invalid configuration: DEMO_PLATFORM_ERROR_RATE must be a number from 0 to 1",
    );
  });
});
