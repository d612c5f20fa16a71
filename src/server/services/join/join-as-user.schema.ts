import { z } from "zod";

/** Input of `my.joinMesh` (POST /my/join): a signed-in user joins with an invite. */
export const ZUserJoinInput = z.strictObject({
  token: z.string().min(1).max(4_096),
  /** The name the other members see; the user's own name when left out. */
  displayName: z.string().trim().min(1).max(80).optional(),
});
/** The input as the router parsed it (the service does not parse it again). */
export type TUserJoinInput = z.output<typeof ZUserJoinInput>;
