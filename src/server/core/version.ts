import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The product version from package.json. */
export const APP_VERSION: string = (
  JSON.parse(readFileSync(fileURLToPath(new URL("../../../package.json", import.meta.url)), "utf8")) as {
    version: string;
  }
).version;
