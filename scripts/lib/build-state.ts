import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../../src/server/core/project-root";

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === "node_modules" || entry === "generated" || entry.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** True when the production build is missing or older than the sources it was built from. */
export function webBuildIsStale(): boolean {
  const buildId = path.join(PROJECT_ROOT, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  const inputs = ["src", "public", "next.config.mjs", "package-lock.json", "tsconfig.json"].map((p) =>
    path.join(PROJECT_ROOT, p),
  );
  return inputs.some((p) => newestMtime(p) > built);
}

/** True when the generated Prisma client is missing or older than the schema. */
export function prismaClientIsStale(): boolean {
  const client = path.join(PROJECT_ROOT, "src", "generated", "prisma", "client.ts");
  if (!existsSync(client)) return true;
  return statSync(path.join(PROJECT_ROOT, "prisma", "schema.prisma")).mtimeMs > statSync(client).mtimeMs;
}
