#!/usr/bin/env node
// The `mesh` command of the installed package (bin: dist/mesh.js). This file is the bundle's entry and
// stays tiny: it turns the compile cache on first, so every module loaded after it is cached, then loads
// the command line (broker/cli/main.ts), whose commands are each loaded only when they run.
import { fileURLToPath } from "node:url";
import { enableCompileCache } from "./compile-cache";

enableCompileCache();
const { run } = await import("../../../broker/cli/main");
// Exit at once: nothing is left to do, and an idle keep-alive socket must not hold the process.
process.exit(await run(process.argv.slice(2), fileURLToPath(import.meta.url)));
