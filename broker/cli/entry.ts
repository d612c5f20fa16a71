// Which script runs this `mesh`: the hooks and the MCP server that `mesh install claude-code` registers
// name it, so they run the same command line from any folder.
import path from "node:path";

let entry: string | undefined;

/** Called by the bin that started the process when it is not broker/cli/mesh.mjs (the installed bundle). */
export function setMeshEntry(file: string): void {
  entry = file;
}

/** The command line that runs this `mesh` (node and the script, absolute: hooks run from any folder). */
export function meshCommand(): string[] {
  return [process.execPath, entry ?? path.resolve(import.meta.dirname, "mesh.mjs")];
}
