import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project's root folder (this file lives in src/server/core): where the processes find deploy/, .next
 * and the revision file. Not `new URL("../../../", import.meta.url)`: Turbopack takes that form for an asset
 * of the bundle and fails to compile any page that imports this module (the mail settings do).
 */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..") + path.sep;
