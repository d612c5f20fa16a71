/**
 * Builds the installable `mesh` package (its `prepack`, so `npm pack` here always packs a fresh build):
 * the command line bundled by esbuild into minified ESM under dist/ with every dependency inside (the
 * package has none, so `npm install -g <tarball>` needs no registry), split so that each command's code is
 * loaded only when it runs. Then two checks on esbuild's metafile, failing the build when broken:
 *   - `mesh --help` and `--version` load none of the client, zod, ws, tweetnacl or the MCP SDK;
 *   - no TypeScript or tsx is loaded at run time (only the bundle and Node's built-ins).
 * Writes dist/THIRD-PARTY-LICENSES.txt (the licence of every bundled package) and prints, on standard
 * error, what each command loads before it runs.
 *   node --import tsx packages/mesh-cli/build.ts     (MESH_BUILD_META=<file> also writes esbuild's metafile)
 */
import { build, type Metafile, type Plugin } from "esbuild";
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";

const here = import.meta.dirname;
const root = path.resolve(here, "..", "..");
const dist = path.join(here, "dist");
const pkg = JSON.parse(readFileSync(path.join(here, "package.json"), "utf8")) as { name: string; version: string };

/** ws's optional native speed-ups: ws falls back to JavaScript when they cannot be required. */
const OPTIONAL = ["bufferutil", "utf-8-validate"];
/** Packages `mesh --help` must not load (the point of the split). */
const NOT_FOR_HELP = ["zod", "ws", "tweetnacl", "@modelcontextprotocol/sdk"];

/**
 * `import { z } from "zod"` takes zod's whole namespace, and with it `z.locales`: the error messages of
 * 40-odd languages (about 250 KB of the bundle). The command line never picks a locale (zod's default,
 * English, is imported by zod itself from locales/en.js), so the namespace keeps English only.
 */
const zodEnglishOnly: Plugin = {
  name: "zod-english-only",
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: path.dirname(args.path),
      loader: "js",
    }));
  },
};

/**
 * Node's built-ins are taken with require(), not import: importing one as ESM builds a facade that reads
 * every export, and node:http's include lazy getters (WebSocket, ...) that load Node's whole fetch
 * implementation (undici) on every start of a command that imports node:http (about 10 ms here).
 */
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const builtinsByRequire: Plugin = {
  name: "builtins-by-require",
  setup(b) {
    b.onResolve({ filter: /^[a-z_:/]+$/ }, (args) =>
      args.kind === "import-statement" && builtins.has(args.path)
        ? { path: args.path, namespace: "builtin-by-require" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "builtin-by-require" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};

rmSync(dist, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { mesh: path.join(here, "src", "mesh.ts") },
  outdir: dist,
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minify: true,
  legalComments: "none",
  tsconfig: path.join(root, "tsconfig.json"),
  // Bundled CommonJS (ws, tweetnacl, ajv) calls require() for Node's built-ins: give every chunk one.
  banner: {
    js: "import{createRequire as __meshCreateRequire}from'node:module';const require=__meshCreateRequire(import.meta.url);",
  },
  define: { MESH_CLI_VERSION: JSON.stringify(pkg.version) },
  external: OPTIONAL,
  plugins: [zodEnglishOnly, builtinsByRequire],
  metafile: true,
  logLevel: "warning",
});

const meta = result.metafile;
if (process.env.MESH_BUILD_META) writeFileSync(process.env.MESH_BUILD_META, JSON.stringify(meta));
const entry = path.relative(root, path.join(dist, "mesh.js"));
const outputs = meta.outputs;

/** The output files loaded by the time `file` runs (its static imports, transitively), itself first. */
function staticClosure(file: string): string[] {
  const seen = new Set<string>();
  const walk = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const i of outputs[f]?.imports ?? []) if (i.kind === "import-statement" && !i.external) walk(i.path);
  };
  walk(file);
  return [...seen];
}

/** Dynamic imports of the given outputs (the chunks loaded on demand). */
const dynamicImports = (files: string[]) =>
  files.flatMap((f) => (outputs[f]?.imports ?? []).filter((i) => i.kind === "dynamic-import").map((i) => i.path));

/** The npm package an input belongs to (`node_modules/<name>` or `node_modules/@scope/name`, innermost). */
function packageOf(input: string): string | undefined {
  const at = input.lastIndexOf("node_modules/");
  if (at < 0) return undefined;
  const [first = "", second = ""] = input.slice(at + "node_modules/".length).split("/");
  return first.startsWith("@") ? `${first}/${second}` : first;
}

function describe(files: string[]) {
  const inputs = files.flatMap((f) => Object.keys(outputs[f]?.inputs ?? {}));
  return {
    bytes: files.reduce((n, f) => n + (outputs[f]?.bytes ?? 0), 0),
    packages: [...new Set(inputs.map(packageOf).filter((p): p is string => p !== undefined))].sort(),
    inputs,
  };
}

// `mesh --help`: the entry, then main.ts (the entry's one dynamic import) with what it imports statically.
const mainChunks = dynamicImports([entry]);
const helpFiles = [...new Set([...staticClosure(entry), ...mainChunks.flatMap(staticClosure)])];
const help = describe(helpFiles);
const forbidden = help.packages.filter((p) => NOT_FOR_HELP.includes(p));
const clientCode = help.inputs.filter((i) => i.startsWith("broker/client/"));
if (forbidden.length > 0 || clientCode.length > 0)
  throw new Error(`mesh --help would load ${[...forbidden, ...clientCode].join(", ")}: keep main.ts's imports lazy`);
const runtime = Object.keys(meta.inputs).filter((i) => /(^|\/)(tsx|typescript)\//.test(i));
if (runtime.length > 0) throw new Error(`the bundle includes ${runtime.join(", ")}`);
// What the bundle leaves to run time (imports and requires alike) is Node's built-ins and ws's optional helpers.
const left = Object.values(outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
const unbundled = [...new Set(left)].filter((p) => !builtins.has(p) && !OPTIONAL.includes(p));
if (unbundled.length > 0) throw new Error(`the bundle would need ${unbundled.join(", ")} at run time`);

// What each command loads before it runs: --help's files plus its chunk and that chunk's static imports.
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
const lines = [`mesh --help: ${kb(help.bytes)} (${helpFiles.length} files)`];
for (const chunk of [...new Set(dynamicImports(helpFiles))].filter((c) => !helpFiles.includes(c)).sort()) {
  const name = outputs[chunk]?.entryPoint ?? chunk;
  const files = [...new Set([...helpFiles, ...staticClosure(chunk)])];
  const d = describe(files);
  lines.push(
    `${path.basename(name, ".ts")}: ${kb(d.bytes)} (${files.length} files; ${d.packages.join(", ") || "no package"})`,
  );
}
chmodSync(path.join(dist, "mesh.js"), 0o755);
writeFileSync(path.join(dist, "THIRD-PARTY-LICENSES.txt"), licences(meta));
const total = Object.values(outputs).reduce((n, o) => n + o.bytes, 0);
process.stderr.write(`${pkg.name} ${pkg.version}: dist/ ${kb(total)} in ${Object.keys(outputs).length} files\n`);
process.stderr.write(lines.map((l) => `  ${l}\n`).join(""));

/** The licence text (or field) of every package bundled, with its name and version. */
function licences(metafile: Metafile): string {
  const dirs = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const name = packageOf(input);
    if (!name) continue;
    const at = input.lastIndexOf(`node_modules/${name}/`);
    dirs.add(path.join(root, input.slice(0, at + `node_modules/${name}`.length)));
  }
  const sections = new Map<string, string>();
  for (const dir of dirs) {
    const p = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
      name: string;
      version: string;
      license?: string;
    };
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
    const text = file ? readFileSync(path.join(dir, file), "utf8").trim() : `License: ${p.license ?? "not stated"}`;
    // The same version installed twice (nested under another package) is listed once.
    sections.set(`${p.name}@${p.version}`, `${p.name} ${p.version} (${p.license ?? "no license field"})\n\n${text}\n`);
  }
  const listed = [...sections.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, text]) => text);
  return `Packages bundled into ${pkg.name} ${pkg.version}, with their licences.\n\n${listed.join(`\n${"-".repeat(72)}\n\n`)}`;
}
