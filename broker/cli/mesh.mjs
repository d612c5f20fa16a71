#!/usr/bin/env node
// The `mesh` command of a clone (package.json "bin", `npx mesh`): runs the TypeScript entry through tsx's
// loader, so it works right after `npm install` with no build step and always runs the checkout's code.
// The installable package (packages/mesh-cli) runs the same main.ts, bundled (docs/cli.md, "Install").
import { register } from "tsx/esm/api";

register();
const { run } = await import("./main.ts");
// Exit at once: nothing is left to do, and an idle keep-alive socket must not hold the process.
process.exit(await run(process.argv.slice(2)));
