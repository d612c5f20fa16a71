// Packing this package and installing the tarball as a user would (`npm pack`, then `npm install -g`
// into a prefix), for the package's integration test and bench/cli-start.ts.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";

const PACKAGE_DIR = import.meta.dirname;

export interface InstalledMesh {
  /** The tarball `npm pack` wrote. */
  tarball: string;
  /** The files in it. */
  files: string[];
  /** What the prepack build printed (what each command loads). */
  buildReport: string;
  /** The prefix it is installed into, and the package's folder and `mesh` command there. */
  prefix: string;
  packageDir: string;
  bin: string;
}

/** npm with this process's environment minus the npm_* variables `npm run`/`npm test` set, and a cache of its own. */
function npmEnv(cache: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (/^npm_/i.test(key)) delete env[key];
  return { ...env, npm_config_cache: cache, npm_config_update_notifier: "false" };
}

function npm(args: string[], cwd: string, cache: string): Promise<{ out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", args, { cwd, env: npmEnv(cache), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0 ? resolve({ out, err }) : reject(new Error(`npm ${args[0]} exited with ${code}:\n${err}${out}`)),
    );
  });
}

/**
 * Builds and packs the package into `work`, then installs the tarball with `npm install --global
 * --prefix <work>/prefix --offline` and an empty npm cache: the install succeeds only if the tarball
 * needs nothing from a registry.
 */
export async function packAndInstall(work: string): Promise<InstalledMesh> {
  const packed = await npm(
    ["pack", "--json", "--pack-destination", work],
    PACKAGE_DIR,
    path.join(work, "npm-cache-pack"),
  );
  const [info] = JSON.parse(packed.out) as { filename: string; files: { path: string }[] }[];
  if (!info) throw new Error(`npm pack printed no tarball: ${packed.out}`);
  const tarball = path.join(work, info.filename);
  const prefix = path.join(work, "prefix");
  mkdirSync(prefix, { recursive: true });
  const args = ["install", "--global", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", tarball];
  await npm(args, work, path.join(work, "npm-cache-install"));
  const { name } = JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8")) as { name: string };
  return {
    tarball,
    files: info.files.map((f) => f.path),
    buildReport: packed.err,
    prefix,
    packageDir: path.join(prefix, "lib", "node_modules", name),
    bin: path.join(prefix, "bin", "mesh"),
  };
}
