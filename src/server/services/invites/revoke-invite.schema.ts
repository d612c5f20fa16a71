import { z } from "zod";

export const ZInviteIdInput = z.object({ inviteId: z.uuid({ error: "invalid_invite_id" }) });
