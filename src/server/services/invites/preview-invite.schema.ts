import { z } from "zod";

/** Input of an invite preview: any string (the codec answers `malformed` for whatever is not a token). */
export const ZPreviewInviteInput = z.object({ token: z.string().max(1_000_000) });
export type TPreviewInviteInput = z.output<typeof ZPreviewInviteInput>;
