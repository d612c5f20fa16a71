// Where the other broker nodes reach this one for their links (BROKER_PEER_URL, broker/cluster/links.ts).

/** Checks and normalises a peer address: ws:// or wss://, no credentials, query or fragment; no trailing slash. */
export function peerBase(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (
    (parsed.protocol !== "ws:" && parsed.protocol !== "wss:") ||
    parsed.username ||
    parsed.password ||
    parsed.search ||
    parsed.hash
  )
    return null;
  return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, "")}`;
}

const WILDCARDS = new Set(["", "0.0.0.0", "::", "[::]"]);

/**
 * The address when BROKER_PEER_URL is not set: the listening host and port, or loopback when the node
 * listens on every interface (nodes on one machine); nodes on several machines set BROKER_PEER_URL.
 */
export function defaultPeerUrl(host: string, port: number): string {
  const h = WILDCARDS.has(host) ? "127.0.0.1" : host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `ws://${h}:${port}`;
}
