// `mesh login`, `mesh whoami`, `mesh logout`: this machine's link to a user of the web app (docs/cli.md).
import os from "node:os";
import { AccountError, findSession, loginWithDevice, logout, whoami } from "../../client";
import { CliFailure, EXIT, parseCommandArgs, printable, storeOf, UsageError, type CliIo } from "../io";
import { selectMesh } from "../session";
import { identityView } from "./mcp-identity";

/** Where `mesh login` goes without --web: MESH_WEB_URL, else the product's local address. */
export const DEFAULT_WEB_URL = "http://localhost:3000";

/** What the web app's refusals of a stored token mean for the person, and what to do (docs/cli.md). */
const TOKEN_REFUSALS: Readonly<Record<string, string>> = {
  device_token_expired: "your login expired (unused for 30 days, or 90 days old); run mesh login",
  device_token_invalid:
    "this machine's login was ended (signed out from the web app, password changed, or mesh logout); run mesh login",
};

const failure = (error: unknown): never => {
  if (error instanceof AccountError) throw new CliFailure(TOKEN_REFUSALS[error.code] ?? error.message, error.code);
  throw error;
};

/** `mesh login [--web <url>] [--name <n>]`: the device flow; the token is stored 0600 in MESH_HOME. */
export async function loginCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    web: { type: "string" },
    name: { type: "string" },
    json: { type: "boolean" },
  });
  if (positionals.length > 0)
    throw new UsageError("mesh login takes no arguments; the web app's address goes in --web");
  const webUrl = values.web ?? io.env.MESH_WEB_URL ?? DEFAULT_WEB_URL;
  const clientName = (values.name ?? os.hostname()).trim().slice(0, 80) || "mesh";
  const store = storeOf(io);
  const account = await loginWithDevice(webUrl, {
    clientName,
    onCode: ({ userCode, url, expiresIn }) => {
      io.err(`To sign in this machine, open ${url}`);
      io.err(`and confirm the code ${userCode} (it expires in ${Math.round(expiresIn / 60)} minutes). Waiting…`);
    },
  }).catch(failure);
  const file = store.saveAccount(account);
  if (values.json)
    io.out(JSON.stringify({ name: account.name, email: account.email, webUrl: account.webUrl, accountFile: file }));
  else
    io.out(
      `Signed in as ${account.name ?? account.email ?? "you"}${account.email && account.name ? ` <${account.email}>` : ""} at ${account.webUrl}. Meshes you join from now on are linked to this account.`,
    );
  return EXIT.ok;
}

/**
 * `mesh whoami [--mesh <slug>] [--session <id>] [--json]`: the user this machine is signed in as (asked
 * of the web app: a revoked token says so), then who it is in each joined mesh: the machine's member, or
 * inside an assistant session that has a member of its own (CLAUDE_CODE_SESSION_ID, or --session) that
 * member with its session and parent (docs/cli.md, "One identity per session"). Local files only.
 */
export async function whoamiCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(args, {
    json: { type: "boolean" },
    mesh: { type: "string" },
    session: { type: "string" },
  });
  const store = storeOf(io);
  const account = store.account();
  const meshes = values.mesh ? [selectMesh(io, values.mesh)] : store.list().meshes;
  if (!account && meshes.length === 0) throw new CliFailure("not signed in; run mesh login", "NOT_SIGNED_IN");
  const sessionId = values.session ?? io.env.CLAUDE_CODE_SESSION_ID;
  const identities = meshes.map((m) => {
    const session = sessionId ? findSession(store.home, m.meshId, { sessionId }) : undefined;
    return identityView(m, session?.parentMemberId === m.memberId ? session : undefined);
  });
  const user = account ? await whoami(account).catch(failure) : undefined;
  if (values.json) {
    io.out(JSON.stringify({ ...(user && account ? { ...user, webUrl: account.webUrl } : {}), identities }));
    return EXIT.ok;
  }
  if (user && account)
    io.out(
      `${user.name ?? user.email ?? "unknown"}${user.email && user.name ? ` <${user.email}>` : ""} at ${account.webUrl}`,
    );
  else io.err("not signed in to a web app (mesh login)");
  for (const i of identities)
    io.out(
      `mesh ${i.mesh}: ${printable(i.name)} (member ${i.member_id}, ${i.role})` +
        (i.session && i.parent
          ? `, assistant session ${printable(i.session.key)}, parent ${printable(i.parent.name)} (member ${i.parent.member_id})`
          : ", this machine"),
    );
  return EXIT.ok;
}

/** `mesh logout`: revokes the token at the web app and forgets it (also when the web app cannot be reached). */
export async function logoutCommand(args: string[], io: CliIo): Promise<number> {
  parseCommandArgs(args, {});
  const store = storeOf(io);
  const account = store.account();
  if (!account) {
    io.out("Not signed in.");
    return EXIT.ok;
  }
  let revoked = true;
  await logout(account).catch((error: unknown) => {
    if (!(error instanceof AccountError)) throw error;
    revoked = false;
    io.err(`warning: could not revoke the token at ${account.webUrl} (${error.message}); it is forgotten here`);
  });
  store.removeAccount();
  io.out(revoked ? "Signed out; the token is revoked." : "Signed out on this machine.");
  return EXIT.ok;
}
