// `mesh login` on the command line's side (docs/cli.md): the device flow against the web app, and the
// token's later uses (whoami, logout). The token goes only to the web app it came from and, in joins,
// to the broker of the invite when that web app vouches for it (issue 41: a link may name any broker).
import { z } from "zod";
import { answerOptions, MeshClientError } from "./mesh-client-error";
import type { TAccount } from "./config-store";
import { postJson, retryAfterOf } from "./post-json";

/** The web app refused a device-flow step or a token's use, or could not be reached. */
export class AccountError extends MeshClientError {
  constructor(code: string, message: string) {
    super(code, message, answerOptions(code));
    this.name = "AccountError";
  }
}

const ZStarted = z.object({
  deviceCode: z.string(),
  userCode: z.string(),
  verificationPath: z.string().startsWith("/"),
  expiresIn: z.number(),
  interval: z.number().min(1).max(60),
});
const ZPolled = z.discriminatedUnion("status", [
  z.object({ status: z.enum(["pending", "slow_down", "denied", "expired"]) }),
  z.object({
    status: z.literal("approved"),
    token: z.string().startsWith("mdt_"),
    user: z.object({ name: z.string().nullable(), email: z.string().nullable() }),
  }),
]);
const ZUser = z.object({
  name: z.string().nullable(),
  email: z.string().nullable(),
  /** Origins of the brokers the web app vouches for; absent from a web app older than issue 41. */
  trustedBrokers: z.array(z.string()).optional(),
});
const ZError = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/** The web app's base URL as the user gave it: http(s) only, no path, query or credentials. */
export function webBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AccountError("BAD_URL", `not a URL: ${raw}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new AccountError("BAD_URL", "the web app's address must start with http:// or https://");
  if (url.username || url.password)
    throw new AccountError("BAD_URL", "the web app's address must not carry a user name or password");
  return url.origin;
}

async function call<T>(webUrl: string, path: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
  const url = `${webBaseUrl(webUrl)}/api/public/device/${path}`;
  let res;
  try {
    res = await postJson(url, JSON.stringify(body));
  } catch (error) {
    throw new AccountError("UNREACHABLE", `cannot reach the web app at ${url}: ${(error as Error).message}`);
  }
  if (res.status !== 200) {
    const parsed = ZError.safeParse(res.json);
    const retry = retryAfterOf(res.headers);
    throw new AccountError(
      parsed.success ? parsed.data.error.message : `HTTP_${res.status}`,
      parsed.success
        ? `${parsed.data.error.message} (HTTP ${res.status})${retry ? `; try again in ${retry} s` : ""}`
        : `the web app answered HTTP ${res.status}`,
    );
  }
  const parsed = schema.safeParse(res.json);
  if (!parsed.success)
    throw new AccountError(
      "BAD_ANSWER",
      "the web app's answer is not what this client expects (is this the mesh web app?)",
    );
  return parsed.data;
}

export interface LoginOptions {
  clientName: string;
  /** Shown to the person: the code and where to confirm it. */
  onCode: (code: { userCode: string; url: string; expiresIn: number }) => void;
  sleep?: (ms: number) => Promise<void>;
}

/** Runs the device flow to its end: the account to store, or AccountError (denied, expired, unreachable). */
export async function loginWithDevice(webUrl: string, opts: LoginOptions): Promise<TAccount> {
  const base = webBaseUrl(webUrl);
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const started = await call(base, "code", { clientName: opts.clientName.slice(0, 80) || "mesh" }, ZStarted);
  opts.onCode({
    userCode: started.userCode,
    url: `${base}${started.verificationPath}?code=${encodeURIComponent(started.userCode)}`,
    expiresIn: started.expiresIn,
  });
  let interval = started.interval;
  const deadline = Date.now() + started.expiresIn * 1000;
  while (Date.now() < deadline) {
    await sleep(interval * 1000);
    const polled = await call(base, "token", { deviceCode: started.deviceCode }, ZPolled);
    if (polled.status === "approved")
      return {
        version: 1,
        webUrl: base,
        token: polled.token,
        name: polled.user.name,
        email: polled.user.email,
        loggedInAt: new Date().toISOString(),
      };
    if (polled.status === "slow_down") interval += 5;
    if (polled.status === "denied") throw new AccountError("DENIED", "the login was denied on the web page");
    if (polled.status === "expired")
      throw new AccountError("EXPIRED", "the code expired before it was approved; run mesh login again");
  }
  throw new AccountError("EXPIRED", "the code expired before it was approved; run mesh login again");
}

/** Who the stored token stands for (AccountError `device_token_invalid` once it was revoked). */
export function whoami(account: TAccount) {
  return call(account.webUrl, "whoami", { token: account.token }, ZUser);
}

/**
 * The origins of the brokers the account's own web app vouches for (asked each time: the list is the web
 * app's to change). Empty when the web app publishes none, so nothing is vouched for.
 */
export async function vouchedBrokers(account: Pick<TAccount, "webUrl" | "token">): Promise<string[]> {
  return (await call(account.webUrl, "whoami", { token: account.token }, ZUser)).trustedBrokers ?? [];
}

/** Revokes the token at the web app. */
export async function logout(account: TAccount): Promise<void> {
  await call(account.webUrl, "logout", { token: account.token }, z.object({ loggedOut: z.literal(true) }));
}
