import net from "node:net";
import { z } from "zod";

// Whose request is this? The one answer every limiter of the web app and the broker uses
// (docs/security.md, "Client addresses"). The socket's address is the truth; X-Forwarded-For is a
// claim anyone can make, believed only for the hops TRUST_PROXY names: a count of proxies in front
// of the process, or the addresses (and CIDR ranges) of those proxies.

/** Which forwarded hops to believe: none (default), the nearest `hops` proxies, or proxies at these addresses. */
export type TrustProxy = { kind: "none" } | { kind: "hops"; hops: number } | { kind: "list"; list: net.BlockList };

/** TRUST_PROXY: unset or "" (no proxy), a hop count ("1"), or comma-separated proxy addresses or CIDRs. */
export const ZTrustProxy = z
  .string()
  .default("")
  .transform((value, ctx): TrustProxy => {
    const text = value.trim();
    if (text === "" || text === "0" || text === "false") return { kind: "none" };
    if (/^\d+$/.test(text)) return { kind: "hops", hops: Math.min(Number(text), 32) };
    const list = new net.BlockList();
    for (const entry of text
      .split(",")
      .map((e) => e.trim())
      .filter(Boolean)) {
      const [address, prefix] = entry.split("/") as [string, string | undefined];
      const family = net.isIP(address);
      if (!family || (prefix !== undefined && !/^\d+$/.test(prefix))) {
        ctx.addIssue({ code: "custom", message: "must be a hop count or comma-separated addresses or CIDRs" });
        return z.NEVER;
      }
      const type = family === 6 ? "ipv6" : "ipv4";
      if (prefix === undefined) list.addAddress(address, type);
      else list.addSubnet(address, Number(prefix), type);
    }
    return { kind: "list", list };
  });

const bare = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");

function trusted(list: net.BlockList, address: string): boolean {
  const family = net.isIP(address);
  return family !== 0 && list.check(address, family === 6 ? "ipv6" : "ipv4");
}

/**
 * The client's address: the socket's, or, behind trusted proxies, the nearest X-Forwarded-For hop that
 * is not a trusted proxy (hops are read from the nearest, the end of the header, outwards).
 */
export function clientAddressOf(
  socketAddress: string | undefined,
  forwardedFor: string | null | undefined,
  trust: TrustProxy,
): string {
  const socket = bare(socketAddress ?? "") || "unknown";
  if (trust.kind === "none" || !forwardedFor) return socket;
  const hops = forwardedFor
    .split(",")
    .map((h) => bare(h.trim()))
    .filter(Boolean)
    .reverse();
  if (trust.kind === "hops") {
    // The socket is the nearest proxy; `hops` proxies in front each appended the address they saw.
    return hops[Math.min(trust.hops, hops.length) - 1] ?? socket;
  }
  if (!trusted(trust.list, socket)) return socket;
  for (const hop of hops) if (!trusted(trust.list, hop)) return hop;
  return hops.at(-1) ?? socket;
}

/** The header the web server sets on every request it hands to the app (any such header a client sent is replaced). */
export const CLIENT_ADDRESS_HEADER = "x-client-address";

/** The client address the web server established (see src/web/server.ts); "unknown" outside it. */
export function clientAddress(headers: Headers | undefined): string {
  return headers?.get(CLIENT_ADDRESS_HEADER)?.trim() || "unknown";
}
