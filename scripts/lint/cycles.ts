/**
 * The import-cycle check of `npm run lint`: every import between the project's own modules, type-only
 * imports included (a cycle of types is still two files that cannot be understood apart), must form a
 * graph without cycles. Prisma's generated client is left out: its cycles are its own.
 */
import { parseCircular, parseDependencyTree, shortenTree } from "dpdm";

const SOURCES = [
  "src/**/*.{ts,tsx}",
  "broker/**/*.{ts,mts}",
  "scripts/**/*.ts",
  "prisma/**/*.ts",
  "bench/**/*.ts",
  "packages/*/*.ts",
  "packages/*/src/**/*.ts",
  "e2e/**/*.ts",
  ".config/**/*.ts",
];
const context = process.cwd();
const tree = await parseDependencyTree(SOURCES, {
  context,
  tsconfig: "tsconfig.json",
  transform: false,
  exclude: /node_modules|src\/generated\//,
});
const cycles = parseCircular(shortenTree(context, tree)).filter(
  (cycle) => !cycle.some((file) => file.startsWith("src/generated/")),
);
for (const [i, cycle] of cycles.entries()) console.log(`cycle ${i + 1}: ${[...cycle, cycle[0]].join(" -> ")}`);
console.log(`${cycles.length} import cycles`);
if (cycles.length > 0) process.exitCode = 1;
