import type { Db } from "@/server/core/db";

/** Seals and opens secrets at rest (AES-256-GCM under the configured key ring). */
export interface Sealer {
  seal(plaintext: Uint8Array | string, aad: string): string;
  open(sealed: string, aad: string): Buffer;
}

/** What the mesh use cases need besides the actor and the input. */
export interface MeshDeps {
  db: Db;
  sealer: Sealer;
  /** Public address of the web app, for join links. */
  publicBaseUrl: string;
  /** Address peers connect to, written into invites. */
  brokerUrl: string;
  now?: () => Date;
}

export const nowOf = (deps: { now?: () => Date }) => (deps.now ? deps.now() : new Date());
