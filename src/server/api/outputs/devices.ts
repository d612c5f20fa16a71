import { z } from "zod";
import { ZDate } from "./common";

// Output schemas of the command-line login (device codes) and its tokens.

export const ZDeviceLoginStartOut = z.object({
  deviceCode: z.string(),
  userCode: z.string(),
  verificationPath: z.string(),
  expiresIn: z.number().int(),
  interval: z.number().int(),
});
export const ZDeviceLoginPollOut = z.discriminatedUnion("status", [
  z.object({ status: z.enum(["pending", "slow_down", "denied", "expired"]) }),
  z.object({
    status: z.literal("approved"),
    token: z.string(),
    user: z.object({ name: z.string().nullable(), email: z.string().nullable() }),
  }),
]);
export const ZDeviceWhoamiOut = z.object({
  name: z.string().nullable(),
  email: z.string().nullable(),
  /** Origins of the brokers this web app vouches for (PUBLIC_BROKER_URL, TRUSTED_BROKER_URLS). */
  trustedBrokers: z.array(z.string()),
});
export const ZDeviceLogoutOut = z.object({ loggedOut: z.literal(true) });
export const ZDeviceLoginOut = z.object({
  userCode: z.string(),
  clientName: z.string(),
  createdAt: ZDate,
  expiresAt: ZDate,
  /** What approving needs besides the session: nothing (signed in just now), the password, or a new sign-in. */
  reauth: z.enum(["none", "password", "sign_in"]),
});
export const ZDeviceDecidedOut = z.object({ userCode: z.string(), clientName: z.string(), approved: z.boolean() });
