import { open, parseKeyRing, seal } from "@/server/core/crypto/seal";
import type { Db } from "@/server/core/db";
import { appEnv } from "@/server/env";
import type { MeshDeps, Sealer } from "./meshes/deps";

let sealer: Sealer | undefined;

/** The sealer on the configured key ring (SECRETS_KEYS), built once per process. */
export function configuredSealer(): Sealer {
  if (!sealer) {
    const ring = parseKeyRing(appEnv().SECRETS_KEYS);
    sealer = { seal: (plaintext, aad) => seal(ring, plaintext, aad), open: (sealed, aad) => open(ring, sealed, aad) };
  }
  return sealer;
}

/** Dependencies of the mesh use cases in the web app. */
export function meshDeps(db: Db): MeshDeps {
  const env = appEnv();
  return { db, sealer: configuredSealer(), publicBaseUrl: env.PUBLIC_BASE_URL, brokerUrl: env.PUBLIC_BROKER_URL };
}
