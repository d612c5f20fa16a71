import net from "node:net";

// The outbound address guard (docs/review-engine.md, "Outbound requests"): which IP addresses the
// product's own requests (callbacks, scrapers, the browser's page loads) may connect to. Anything
// that is not a public unicast address of the internet is refused unless the caller allows private
// destinations: loopback, RFC 1918, carrier-grade NAT, link-local, unique-local, multicast,
// unspecified, documentation and benchmarking ranges, and IPv6 forms that carry an IPv4 address
// (IPv4-mapped, IPv4-translated, NAT64, 6to4, Teredo) are judged by the IPv4 address inside them.

/** Why an address is refused, or "public". */
export type AddressClass =
  | "public"
  | "loopback"
  | "private"
  | "cgnat"
  | "link_local"
  | "unique_local"
  | "multicast"
  | "unspecified"
  | "reserved"
  | "invalid";

const V4_RANGES: [string, number, AddressClass][] = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "cgnat"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link_local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"], // IETF protocol assignments
  ["192.0.2.0", 24, "reserved"], // TEST-NET-1
  ["192.88.99.0", 24, "reserved"], // 6to4 relay anycast
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"], // benchmarking
  ["198.51.100.0", 24, "reserved"], // TEST-NET-2
  ["203.0.113.0", 24, "reserved"], // TEST-NET-3
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"], // future use and broadcast
];

function parseV4(text: string): Uint8Array | null {
  if (!net.isIPv4(text)) return null;
  return Uint8Array.from(text.split(".").map(Number));
}

const toU32 = (b: Uint8Array) => (((b[0] ?? 0) << 24) | ((b[1] ?? 0) << 16) | ((b[2] ?? 0) << 8) | (b[3] ?? 0)) >>> 0;

const V4 = V4_RANGES.map(([base, prefix, cls]) => {
  const mask = (0xffffffff << (32 - prefix)) >>> 0;
  return { net: (toU32(parseV4(base) as Uint8Array) & mask) >>> 0, mask, cls };
});

/** The class of an IPv4 address given as four bytes. */
function classifyV4(b: Uint8Array): AddressClass {
  const value = toU32(b);
  return V4.find((r) => (value & r.mask) >>> 0 === r.net)?.cls ?? "public";
}

/** The 16 bytes of an IPv6 address (zone index dropped), or null. */
export function parseV6(text: string): Uint8Array | null {
  const bare = text.replace(/%.*$/, "");
  if (!net.isIPv6(bare)) return null;
  let head = bare;
  const out = new Uint8Array(16);
  // A trailing dotted quad stands for the last 32 bits.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(head);
  let tailBytes: number[] = [];
  if (quad?.[1]) {
    const v4 = parseV4(quad[1]);
    if (!v4) return null;
    tailBytes = [...v4];
    head = head.slice(0, -quad[1].length);
    if (head.endsWith(":") && !head.endsWith("::")) head = head.slice(0, -1);
  }
  const [left = "", right] = head.split("::");
  const groups = (s: string) => (s === "" ? [] : s.split(":").map((g) => parseInt(g, 16)));
  const l = groups(left);
  const r = right === undefined ? [] : groups(right);
  const words = 8 - tailBytes.length / 2;
  const middle = right === undefined ? [] : Array(words - l.length - r.length).fill(0);
  const all = [...l, ...middle, ...r];
  if (all.length !== words) return null;
  all.forEach((w, i) => {
    out[i * 2] = (w >> 8) & 0xff;
    out[i * 2 + 1] = w & 0xff;
  });
  tailBytes.forEach((b, i) => (out[12 + i] = b));
  return out;
}

const startsWith = (b: Uint8Array, prefix: number[], bits: number): boolean => {
  for (let i = 0; i < bits; i += 1) {
    const byte = Math.floor(i / 8);
    const mask = 0x80 >> (i % 8);
    if (((b[byte] ?? 0) & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
};

const zeros = (b: Uint8Array, from: number, to: number) => b.slice(from, to).every((x) => x === 0);

/** The class of an IPv6 address given as 16 bytes (embedded IPv4 addresses judged as IPv4). */
function classifyV6(b: Uint8Array): AddressClass {
  if (zeros(b, 0, 16)) return "unspecified";
  if (zeros(b, 0, 15) && b[15] === 1) return "loopback";
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated): the IPv4 address decides.
  if (zeros(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return classifyV4(b.slice(12));
  if (zeros(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(b, 10, 12)) return classifyV4(b.slice(12));
  // ::a.b.c.d (IPv4-compatible, deprecated) and the rest of ::/96.
  if (zeros(b, 0, 12)) return "reserved";
  // NAT64 well-known prefix 64:ff9b::/96: the IPv4 address decides; the local-use 64:ff9b:1::/48 is private.
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96)) return classifyV4(b.slice(12));
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48)) return "private";
  // 6to4 2002::/16: the IPv4 address in bits 16..47.
  if (startsWith(b, [0x20, 0x02], 16)) return classifyV4(b.slice(2, 6));
  // Teredo 2001::/32: server in bits 32..63, client (inverted) in the last 32 bits; both must be public.
  if (startsWith(b, [0x20, 0x01, 0x00, 0x00], 32)) {
    const server = classifyV4(b.slice(4, 8));
    if (server !== "public") return server;
    return classifyV4(b.slice(12).map((x) => x ^ 0xff));
  }
  if (startsWith(b, [0x20, 0x01, 0x0d, 0xb8], 32)) return "reserved"; // documentation
  if (startsWith(b, [0x01, 0x00, 0, 0, 0, 0, 0, 0], 64)) return "reserved"; // discard-only
  if (startsWith(b, [0xfc], 7)) return "unique_local";
  if (startsWith(b, [0xfe, 0x80], 10)) return "link_local";
  if (startsWith(b, [0xfe, 0xc0], 10)) return "private"; // site-local (deprecated)
  if (startsWith(b, [0xff], 8)) return "multicast";
  return "public";
}

/** The class of an address in text form (IPv4, or IPv6 with or without a zone index). */
export function classifyAddress(address: string): AddressClass {
  const v4 = parseV4(address);
  if (v4) return classifyV4(v4);
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const v6 = parseV6(bare);
  if (v6) return classifyV6(v6);
  return "invalid";
}

/** True for any address outbound requests refuse by default (everything but public unicast). */
export function isPrivateAddress(address: string): boolean {
  return classifyAddress(address) !== "public";
}

/**
 * Without a lookup: true when a URL's host is `localhost` (or a name under it) or a literal address
 * that is not public. Names are checked when the request is made, on every address they resolve to.
 */
export function isLiteralPrivateHost(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const bare = host.startsWith("[") ? host.slice(1, -1) : host;
  return net.isIP(bare) !== 0 && isPrivateAddress(bare);
}
