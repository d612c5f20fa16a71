// The loader hooks of record-loads.mjs (they run on the loader's thread): every resolved URL is appended to the
// file at once, so nothing is lost when the process exits.
import { appendFileSync } from "node:fs";

let file = "";

/** Receives the file to append to. */
export function initialize(data) {
  file = data.file;
}

/** Records where each import resolved to. */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
