// Preloaded with `node --import tsx --import ./record-loads.mjs <entry>`: appends to RECORD_LOADS_FILE every
// module the process loads, ES modules as the loader resolves them and CommonJS modules as they sit in
// require.cache at exit, so a test can tell which modules an entry loads at start.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";

const file = process.env.RECORD_LOADS_FILE;
if (!file) throw new Error("record-loads.mjs needs RECORD_LOADS_FILE");
register("./record-loads-hooks.mjs", { parentURL: import.meta.url, data: { file } });
process.on("exit", () => {
  const cache = createRequire(import.meta.url).cache;
  appendFileSync(file, Object.keys(cache).join("\n") + "\n");
});
