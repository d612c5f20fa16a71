import { z } from "zod";
import { vouchedBrokerOrigins } from "@/server/core/broker-origin";
import { clientAddress } from "@/server/core/client-address";
import { AppError } from "@/server/core/errors";
import { appEnv } from "@/server/env";
import { ZResolveInviteCodeInput } from "@/server/services/invites/invite-code.schema";
import { resolveInviteCode } from "@/server/services/invites/invite-code";
import { joinLinks } from "@/server/services/invites/join-links";
import { previewInvite } from "@/server/services/invites/preview-invite";
import { ZPreviewInviteInput } from "@/server/services/invites/preview-invite.schema";
import { PublicStatsCache } from "@/server/services/stats/public-stats";
import {
  ZDeviceTokenInput,
  ZPollDeviceLoginInput,
  ZStartDeviceLoginInput,
} from "@/server/services/devices/device-login.schema";
import {
  pollDeviceLogin,
  revokeDeviceToken,
  startDeviceLogin,
  checkDeviceToken,
} from "@/server/services/devices/device-login";
import { lazyLimiter, takeOrThrow } from "../rate-limit";
import { createTRPCRouter, publicProcedure } from "../trpc";
import { ZDeviceLoginPollOut, ZDeviceLoginStartOut, ZDeviceLogoutOut, ZDeviceWhoamiOut } from "../outputs/devices";
import { ZInviteCodeOut, ZPreviewOut } from "../outputs/invites";
import { ZStatsOut } from "../outputs/stats";

const statsCache = new PublicStatsCache();
const previewBucket = lazyLimiter("preview", () => appEnv().PREVIEW_RATE_PER_MINUTE);
const inviteCodeBucket = lazyLimiter("invite-code", () => appEnv().INVITE_CODE_RATE_PER_MINUTE);
const deviceLoginBucket = lazyLimiter("device-login", () => appEnv().DEVICE_LOGIN_RATE_PER_MINUTE);
const rest = (path: `/${string}`, summary: string, method: "GET" | "POST" = "GET") => ({
  openapi: { method, path, summary, tags: ["public"] },
});

/** Unauthenticated operations (Document 3, router public). */
export const publicRouter = createTRPCRouter({
  stats: publicProcedure
    .meta(rest("/public/stats", "Aggregate counts (cached 60 s)"))
    .input(z.void())
    .output(ZStatsOut)
    .query(async ({ ctx }) => {
      const { stats, cache } = await statsCache.get(ctx.db);
      ctx.responseHeaders.set("cache-control", "public, s-maxage=60");
      ctx.responseHeaders.set("x-cache", cache);
      return stats;
    }),
  invitePreview: publicProcedure
    .meta(rest("/public/invite/{token}", "Preview an invite"))
    .input(ZPreviewInviteInput)
    .output(ZPreviewOut)
    .query(async ({ ctx, input }) => {
      await takeOrThrow(previewBucket(), clientAddress(ctx.headers), ctx.responseHeaders);
      const preview = await previewInvite(ctx.service, input);
      ctx.responseHeaders.set("cache-control", preview.valid ? "public, max-age=30" : "no-store");
      return preview;
    }),
  // The short link's code (docs/invites.md, "Short links"): the join page and `mesh join` turn it into
  // the token here. Limited per client address so codes cannot be guessed; every code that does not
  // lead to a usable invite gets the same 404.
  resolveInviteCode: publicProcedure
    .meta(rest("/public/invite-code", "The invite token a short link's code stands for", "POST"))
    .input(ZResolveInviteCodeInput)
    .output(ZInviteCodeOut)
    .mutation(async ({ ctx, input }) => {
      ctx.responseHeaders.set("cache-control", "no-store");
      await takeOrThrow(inviteCodeBucket(), clientAddress(ctx.headers), ctx.responseHeaders);
      const { token } = await resolveInviteCode(ctx.service, input);
      return { token, ...joinLinks(ctx.service.settings.publicBaseUrl, token) };
    }),
  // `mesh login` (docs/cli.md): the command line's side of the device flow. The person's side is
  // my.deviceLogin / my.decideDeviceLogin, on the page /<locale>/device.
  deviceLoginStart: publicProcedure
    .meta(rest("/public/device/code", "Start a command-line login (device code and user code)", "POST"))
    .input(ZStartDeviceLoginInput)
    .output(ZDeviceLoginStartOut)
    .mutation(async ({ ctx, input }) => {
      await takeOrThrow(deviceLoginBucket(), clientAddress(ctx.headers), ctx.responseHeaders);
      const started = await startDeviceLogin(ctx.service, input);
      return { ...started, verificationPath: "/device" };
    }),
  deviceLoginPoll: publicProcedure
    .meta(rest("/public/device/token", "Poll a command-line login; its token comes once, when approved", "POST"))
    .input(ZPollDeviceLoginInput)
    .output(ZDeviceLoginPollOut)
    .mutation(({ ctx, input }) => pollDeviceLogin(ctx.service, input)),
  deviceWhoami: publicProcedure
    .meta(rest("/public/device/whoami", "The user a command-line token stands for", "POST"))
    .input(ZDeviceTokenInput)
    .output(ZDeviceWhoamiOut)
    .mutation(async ({ ctx, input }) => {
      // device_token_expired (run mesh login again) or device_token_invalid (unknown or ended).
      const checked = await checkDeviceToken(ctx.service, { token: input.token });
      if (!checked.ok) throw new AppError("UNAUTHORIZED", checked.reason);
      // The brokers this web app vouches for: the command line sends its token to no other (issue 41).
      const env = appEnv();
      const trustedBrokers = vouchedBrokerOrigins(env.PUBLIC_BROKER_URL, env.TRUSTED_BROKER_URLS);
      return { name: checked.user.name, email: checked.user.email, trustedBrokers };
    }),
  deviceLogout: publicProcedure
    .meta(rest("/public/device/logout", "Revoke a command-line token", "POST"))
    .input(ZDeviceTokenInput)
    .output(ZDeviceLogoutOut)
    .mutation(({ ctx, input }) => revokeDeviceToken(ctx.service, input)),
});
