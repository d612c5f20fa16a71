// The connection proof of a browser (docs/protocol.md, "Connecting from a browser"). A page's WebSocket
// cannot set the `x-mesh-auth` header, but it can offer subprotocols: it offers `mesh.v1` and
// `mesh-auth.<the same v1.<ts>.<nonce>.<signature> value>`, the broker checks the second exactly as the
// header and selects the first, so the proof is never echoed back. Portable: the chat page imports it.

/** The subprotocol the broker selects for a browser's connection. */
export const WS_SUBPROTOCOL = "mesh.v1";
/** Prefix of the offered subprotocol that carries the connection proof. */
export const WS_AUTH_SUBPROTOCOL_PREFIX = "mesh-auth.";

const CONTEXT = "ic-ws-v1";

/** The bytes a peer signs to open a connection: context, mesh, member, timestamp and nonce, joined by `|`. */
export function wsAuthString(p: { meshId: string; memberId: string; ts: number; nonce: string }): string {
  return `${CONTEXT}|${p.meshId}|${p.memberId}|${p.ts}|${p.nonce}`;
}

/** The subprotocols a browser offers for a proof (`v1.<ts>.<nonce>.<signature>`): `mesh.v1` first. */
export function authSubprotocols(proof: string): string[] {
  return [WS_SUBPROTOCOL, `${WS_AUTH_SUBPROTOCOL_PREFIX}${proof}`];
}

/**
 * The proof carried by a `Sec-WebSocket-Protocol` header: the value of the one `mesh-auth.` entry, when
 * `mesh.v1` is offered beside it; undefined otherwise (none, several, or no `mesh.v1` to select).
 */
export function proofFromSubprotocols(header: string | undefined): string | undefined {
  if (!header || header.length > 400) return undefined;
  const offered = header.split(",").map((p) => p.trim());
  if (!offered.includes(WS_SUBPROTOCOL)) return undefined;
  const proofs = offered.filter((p) => p.startsWith(WS_AUTH_SUBPROTOCOL_PREFIX));
  return proofs.length === 1 ? proofs[0]?.slice(WS_AUTH_SUBPROTOCOL_PREFIX.length) : undefined;
}
