/**
 * Step 3 of a key rotation (docs/secrets.md): re-seals every sealed mesh secret, invite short code and
 * review bot key under the first key of SECRETS_KEYS, in batches, with a compare-and-set on the old value.
 *   SECRETS_KEYS="kNEW:...,kOLD:..." npm run db:reseal
 * (API-key callback secrets join this loop when they are written; the column is empty until then.)
 */
import { parseKeyRing } from "../src/server/core/crypto/seal";
import { ensureDatabase } from "./database/ensure";
import { createDb } from "../src/server/core/db";
import { SYSTEM } from "../src/server/services/actor";
import { serviceContext } from "../src/server/services/context";
import { resealInviteCodes } from "../src/server/services/invites/reseal-invite-codes";
import { resealMeshSecrets } from "../src/server/services/meshes/reseal-mesh-secrets";
import { resealReviewBotKeys } from "../src/server/services/review-bots/reseal-review-bot-keys";
import { exitOnConfigError } from "./lib/product";
import { localDefaults } from "./lib/local-env";
import { labeller } from "./lib/supervisor";

const log = labeller("reseal", 3);
let database;
try {
  database = await ensureDatabase({ log });
} catch (error) {
  exitOnConfigError(error, "reseal");
}
const ring = parseKeyRing(process.env.SECRETS_KEYS ?? localDefaults().SECRETS_KEYS ?? "");
const db = createDb(database.url, { max: 2 });
try {
  const ctx = serviceContext(SYSTEM, { db });
  const done = await resealMeshSecrets(ctx, { ring });
  log(`re-sealed ${done} mesh(es) under key ${ring.primaryId}`);
  const codes = await resealInviteCodes(ctx, { ring });
  log(`re-sealed ${codes} invite short code(s) under key ${ring.primaryId}`);
  const bots = await resealReviewBotKeys(ctx, { ring });
  log(`re-sealed the keys of ${bots} review bot(s) under key ${ring.primaryId}`);
} finally {
  await db.$disconnect();
  if (database.embedded?.owned) await database.embedded.stop();
}
process.exit(0);
