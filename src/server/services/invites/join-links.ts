/**
 * The two forms of a join link (Document 3): `ic://join/<token>` for the command-line client and
 * `https://<public host>/join/<token>` for people. The web form is https; only a plain-http loopback
 * address (local development) keeps http, so the link works on the machine that made it.
 */
export function joinLinks(publicBaseUrl: string, token: string): { inviteLink: string; joinUrl: string } {
  return { inviteLink: `ic://join/${token}`, joinUrl: `${webOrigin(publicBaseUrl)}/join/${token}` };
}

/**
 * The short join link of an invite's code (docs/invites.md, "Short links"): the same join page, at
 * `https://<public host>/join/<code>`; about 50 characters, so its QR code stays small.
 */
export function shortJoinUrl(publicBaseUrl: string, code: string): string {
  return `${webOrigin(publicBaseUrl)}/join/${code}`;
}

function webOrigin(publicBaseUrl: string): string {
  const base = new URL(publicBaseUrl);
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(base.hostname);
  const scheme = loopback && base.protocol === "http:" ? "http:" : "https:";
  return `${scheme}//${base.host}`;
}
