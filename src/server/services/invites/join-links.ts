/**
 * The two forms of a join link (Document 3): `ic://join/<token>` for the command-line client and
 * `https://<public host>/join/<token>` for people. The web form is https; only a plain-http loopback
 * address (local development) keeps http, so the link works on the machine that made it.
 */
export function joinLinks(publicBaseUrl: string, token: string): { inviteLink: string; joinUrl: string } {
  const base = new URL(publicBaseUrl);
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(base.hostname);
  const scheme = loopback && base.protocol === "http:" ? "http:" : "https:";
  return { inviteLink: `ic://join/${token}`, joinUrl: `${scheme}//${base.host}/join/${token}` };
}
