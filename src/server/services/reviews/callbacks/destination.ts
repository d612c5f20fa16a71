import { lookup } from "node:dns/promises";
import net from "node:net";

// Outbound callbacks must not reach the installation's own network (SSRF): loopback, private,
// link-local, carrier-grade NAT, unique-local, multicast and unspecified addresses are refused
// unless CALLBACK_ALLOW_PRIVATE is on (dev and tests).

const BLOCKED = new net.BlockList();
for (const [net4, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  BLOCKED.addSubnet(net4, prefix, "ipv4");
}
for (const [net6, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  BLOCKED.addSubnet(net6, prefix, "ipv6");
}

/** True for an address the callback sender refuses by default. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return BLOCKED.check(address, "ipv4");
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped?.[1]) return BLOCKED.check(mapped[1], "ipv4");
    return BLOCKED.check(address, "ipv6");
  }
  return true;
}

export class DestinationRefused extends Error {
  constructor(readonly reason: "private_address" | "unresolvable") {
    super(reason);
  }
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

/** At submission: refuses a literal private address or localhost (names are checked again at delivery). */
export function refusedAtSubmission(url: string, allowPrivate: boolean): boolean {
  if (allowPrivate) return false;
  const host = hostOf(new URL(url)).toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return net.isIP(host) !== 0 && isPrivateAddress(host);
}

/** At delivery: the address to connect to, after checking every address the name resolves to. */
export async function resolveDestination(url: URL, allowPrivate: boolean): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostOf(url);
  let addresses: { address: string; family: number }[];
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true });
    } catch {
      throw new DestinationRefused("unresolvable");
    }
  }
  const first = addresses[0];
  if (!first) throw new DestinationRefused("unresolvable");
  if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) throw new DestinationRefused("private_address");
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
