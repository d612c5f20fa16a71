import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "..");

// Tests that measure the broker under load (time, memory, latency bounds): they run as a project of
// their own, one file at a time and after the other integration tests, so nothing else shares the cores.
const LOAD_TESTS = ["broker/storm.integration.test.ts", "broker/backpressure.integration.test.ts"];
// The product as a cluster of real processes (scripts/cluster): it needs the production build, so it
// runs as a project of its own after `build` (scripts/test.ts), alone on the machine.
const CLUSTER_TESTS = ["scripts/cluster/*.cluster.test.ts"];
const integration = {
  environment: "node" as const,
  globalSetup: [path.join(root, ".config", "vitest.integration-setup.ts")],
  setupFiles: [path.join(root, ".config", "vitest.integration-env.ts")],
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  resolve: { alias: { "@": path.join(root, "src") } },
  test: {
    root,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          environment: "node",
          include: ["{src,broker,scripts,prisma,packages}/**/*.test.ts"],
          exclude: ["**/*.integration.test.ts", "**/*.cluster.test.ts", "**/node_modules/**", "packages/*/dist/**"],
        },
      },
      {
        extends: true,
        test: {
          ...integration,
          name: "integration",
          include: ["{src,broker,scripts,prisma,packages}/**/*.integration.test.ts"],
          exclude: [...LOAD_TESTS, "**/node_modules/**"],
        },
      },
      {
        extends: true,
        test: { ...integration, name: "load", include: LOAD_TESTS, fileParallelism: false },
      },
      {
        extends: true,
        test: { ...integration, name: "cluster", include: CLUSTER_TESTS, fileParallelism: false },
      },
    ],
  },
});
