/**
 * Creates an API key of the review engine from the command line (the page is the other way):
 *   npm run apikey:create -- --name "my client" --scopes jobs:read,jobs:write [--rate 600]
 * Prints the key and its callback signing secret once; only the key's SHA-256 is stored.
 */
import { parseArgs } from "node:util";
import { createDb } from "../src/server/core/db";
import { SYSTEM } from "../src/server/services/actor";
import { sealerOf, serviceContext } from "../src/server/services/context";
import { createApiKey } from "../src/server/services/reviews/api-keys";
import { ZCreateApiKeyInput } from "../src/server/services/reviews/api-keys.schema";
import { API_SCOPES, type TApiScope } from "../src/server/services/reviews/schemas";
import { prepare } from "./lib/product";

const { values } = parseArgs({
  options: {
    name: { type: "string" },
    scopes: { type: "string", default: "jobs:read,jobs:write" },
    rate: { type: "string" },
  },
});
const scopes = (values.scopes ?? "")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
if (!values.name || scopes.length === 0 || scopes.some((s) => !(API_SCOPES as readonly string[]).includes(s))) {
  process.stderr.write(
    `usage: npm run apikey:create -- --name <name> [--scopes ${API_SCOPES.join(",")}] [--rate <requests per minute>]\n`,
  );
  process.exit(2);
}
const { env, database } = await prepare({ dev: false, buildWeb: false, seed: false });
const db = createDb(database.url, { max: 1 });
try {
  const created = await createApiKey(
    serviceContext(SYSTEM, { db, sealer: sealerOf(env.SECRETS_KEYS ?? "") }),
    ZCreateApiKeyInput.parse({
      name: values.name,
      scopes: scopes as TApiScope[],
      ...(values.rate ? { rate_limit_per_minute: Number(values.rate) } : {}),
    }),
  );
  process.stdout.write(
    `API key "${created.name}" (${created.prefix}, scopes ${created.scopes.join(", ")}) — shown once, store it now:\n` +
      `  key:              ${created.key}\n` +
      `  callback secret:  ${created.callback_secret}\n`,
  );
} finally {
  await db.$disconnect();
  if (database.embedded?.owned) await database.embedded.stop();
}
