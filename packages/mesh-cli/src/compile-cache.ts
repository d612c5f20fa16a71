// Node's on-disk compile cache for the installed `mesh` (module.enableCompileCache, Node >= 22.1): the
// second start of a command skips compiling its JavaScript. Kept in the user's cache folder.
import module from "node:module";
import os from "node:os";
import path from "node:path";

/** The cache folder of `mesh` for this platform: XDG on Linux and others, Library/Caches on macOS, LOCALAPPDATA on Windows. */
export function meshCacheDir(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
  home: string,
): string | undefined {
  if (platform === "win32") {
    const local = env.LOCALAPPDATA ?? (home ? path.join(home, "AppData", "Local") : "");
    return local ? path.join(local, "mesh", "Cache") : undefined;
  }
  if (platform === "darwin") return home ? path.join(home, "Library", "Caches", "mesh") : undefined;
  // XDG: a relative XDG_CACHE_HOME is invalid and ignored.
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, "mesh");
  return home ? path.join(home, ".cache", "mesh") : undefined;
}

/**
 * Turns the compile cache on where Node has it (22.1 and later; NODE_DISABLE_COMPILE_CACHE=1 turns it
 * off). Never fails the command: without a home or a writable folder it just runs uncached.
 */
export function enableCompileCache(): void {
  const enable = (module as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
  if (typeof enable !== "function") return;
  try {
    const dir = meshCacheDir(process.env, process.platform, safeHome());
    if (dir) enable(path.join(dir, "compile-cache"));
  } catch {
    // A cache is an optimisation only.
  }
}

function safeHome(): string {
  try {
    return os.homedir();
  } catch {
    return "";
  }
}
