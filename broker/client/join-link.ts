// Join links (Document 3): `ic://join/<token>` or the web join URL `https://<host>[/<locale>]/join/<token>`,
// and the short link `https://<host>[/<locale>]/join/<code>` (docs/invites.md), whose code the link's own
// web app turns into the token (see join.ts).
import { normaliseInviteCode, verifyInviteToken, type TInvitePayload } from "../../src/server/core/invites";
import { MeshClientError } from "./mesh-client-error";

/** Why a link or its invite cannot be used, before anything is sent to a broker. */
export class JoinLinkError extends MeshClientError {
  constructor(
    override readonly code: "link_malformed" | "invite_malformed" | "invite_bad_signature",
    message: string,
  ) {
    super(code, message);
    this.name = "JoinLinkError";
  }
}

const IC_LINK = /^ic:\/\/join\/([^/?#\s]+)\/?$/i;
// Locale prefixes of the web app's paths: `en`, `es`, `de`, or a region form such as `pt-BR`.
const JOIN_PATH = /^(?:\/[a-z]{2}(?:-[A-Za-z]{2,4})?)?\/join\/([^/]+)\/?$/;
// A bare token (what the web page also shows): base64url only.
const BARE_TOKEN = /^[A-Za-z0-9_-]+$/;

/** The invite token of a join link in either form (a bare token is accepted too); throws JoinLinkError. */
export function tokenFromJoinLink(link: string): string {
  const text = link.trim();
  if (text === "") throw new JoinLinkError("link_malformed", "the join link is empty");
  const ic = IC_LINK.exec(text);
  if (ic?.[1]) return decode(ic[1]);
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new JoinLinkError("link_malformed", "the join link is not a valid URL");
    }
    const match = JOIN_PATH.exec(url.pathname);
    if (!match?.[1])
      throw new JoinLinkError(
        "link_malformed",
        "the join link's path is not /join/<token> (or /<locale>/join/<token>)",
      );
    return decode(match[1]);
  }
  if (normaliseInviteCode(text))
    throw new JoinLinkError(
      "link_malformed",
      "a short code alone is not enough: give the whole short link (https://<host>/join/<code>)",
    );
  if (BARE_TOKEN.test(text)) return text;
  throw new JoinLinkError("link_malformed", "expected ic://join/<token> or https://<host>/join/<token>");
}

/**
 * The web app and code of a short link (`http(s)://<host>[/<locale>]/join/<code>`), or undefined when
 * the link is not one. The origin is the link's own, as the person gave it (no credentials allowed).
 */
export function shortJoinLinkOf(link: string): { webOrigin: string; code: string } | undefined {
  const text = link.trim();
  if (!/^https?:\/\//i.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const code = normaliseInviteCode(JOIN_PATH.exec(url.pathname)?.[1]);
  if (!code) return undefined;
  if (url.username || url.password)
    throw new JoinLinkError("link_malformed", "the short link must not carry a user name or password");
  return { webOrigin: url.origin, code };
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new JoinLinkError("link_malformed", "the join link's token is not valid percent-encoding");
  }
}

/**
 * The token and decoded invite of a link. The signature is checked against the payload's own owner
 * key (the broker checks it again and decides everything else); an expired invite is left for the
 * broker to refuse, so a client with a wrong clock is not the judge.
 */
export function readJoinLink(link: string): { token: string; invite: TInvitePayload } {
  const token = tokenFromJoinLink(link);
  const verified = verifyInviteToken(token);
  if (verified.ok) return { token, invite: verified.payload };
  if (verified.reason === "expired" && verified.payload) return { token, invite: verified.payload };
  if (verified.reason === "bad_signature")
    throw new JoinLinkError("invite_bad_signature", "the invite's signature does not verify (the link was altered)");
  throw new JoinLinkError("invite_malformed", "the link does not carry a well-formed invite");
}

/** The broker's base HTTP URL from its WebSocket URL (`ws:` → `http:`, `wss:` → `https:`), without a trailing slash. */
export function brokerHttpBase(brokerUrl: string): string {
  const url = new URL(brokerUrl);
  if (url.protocol === "ws:") url.protocol = "http:";
  else if (url.protocol === "wss:") url.protocol = "https:";
  else throw new TypeError("broker URL must be ws:// or wss://");
  return base(url);
}

/** A path on the broker (`/join`, `/hook/set-status`) over HTTP, keeping a path prefix of the broker URL. */
export function brokerHttpUrl(brokerUrl: string, path: string): string {
  return `${brokerHttpBase(brokerUrl)}${path}`;
}

/** The broker's WebSocket URL of a path (`/ws`), keeping a path prefix of the broker URL. */
export function brokerWsUrl(brokerUrl: string, path: string): string {
  const url = new URL(brokerUrl);
  if (url.protocol !== "ws:" && url.protocol !== "wss:") throw new TypeError("broker URL must be ws:// or wss://");
  return `${base(url)}${path}`;
}

function base(url: URL): string {
  url.search = "";
  url.hash = "";
  return url.toString().replace(/\/+$/, "");
}
