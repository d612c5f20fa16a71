import type { Db } from "@/server/core/db";
import type { Sealer } from "../context";

export type { Sealer } from "../context";

/** What the mesh use cases need besides the actor and the input (giving way to ServiceContext). */
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
