import "server-only";
import { TRPCError } from "@trpc/server";
import { cache } from "react";
import { AppError } from "@/server/core/errors";
import { normaliseInviteCode } from "@/server/core/invites";
import type { InvitePreview } from "@/server/services/invites/preview-invite";
import { serverCaller } from "./server";

/** What a join link leads to: the invite's token and preview, or the client's limit was reached. */
export type JoinInvite =
  { kind: "preview"; token: string; preview: InvitePreview } | { kind: "limited"; retryAfterSeconds: number };

// Every code that does not lead to a usable invite shows this one answer (docs/invites.md, "Short links").
const UNUSABLE_CODE: InvitePreview = {
  valid: false,
  reason: "not_found",
  meshName: null,
  meshSlug: null,
  inviterName: null,
  role: null,
  memberCount: null,
  expiresAt: null,
};

/**
 * The invite of the join page's path segment: a signed token, or a short link's code, which is first
 * turned into its token (per-address limited; unknown, expired, revoked and used-up codes all read as
 * `not_found` with no details). Cached per request, so the title and the page make one lookup.
 */
export const loadJoinInvite = cache(async (segment: string): Promise<JoinInvite> => {
  const caller = await serverCaller();
  try {
    let token = segment;
    const code = normaliseInviteCode(segment);
    if (code) {
      try {
        token = (await caller.public.resolveInviteCode({ code })).token;
      } catch (error) {
        if (error instanceof TRPCError && error.code === "NOT_FOUND")
          return { kind: "preview", token: "", preview: UNUSABLE_CODE };
        throw error;
      }
    }
    return { kind: "preview", token, preview: await caller.public.invitePreview({ token }) };
  } catch (error) {
    // Too many lookups or previews from this address: the page says so (a page cannot answer 429).
    if (error instanceof TRPCError && error.code === "TOO_MANY_REQUESTS")
      return { kind: "limited", retryAfterSeconds: retryAfterOf(error) };
    throw error;
  }
});

function retryAfterOf(error: TRPCError): number {
  const seconds = error.cause instanceof AppError ? Number(error.cause.details?.retryAfterSeconds) : Number.NaN;
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 60;
}
