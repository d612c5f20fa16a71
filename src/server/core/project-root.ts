import { fileURLToPath } from "node:url";

/** The project's root folder (this file lives in src/server/core): where the processes find deploy/, .next and the revision file. */
export const PROJECT_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
