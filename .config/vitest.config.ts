import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "..");

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
          include: ["{src,broker,scripts,prisma}/**/*.test.ts"],
          exclude: ["**/*.integration.test.ts", "**/node_modules/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          environment: "node",
          include: ["{src,broker,scripts,prisma}/**/*.integration.test.ts"],
          globalSetup: [path.join(root, ".config", "vitest.integration-setup.ts")],
          setupFiles: [path.join(root, ".config", "vitest.integration-env.ts")],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
