// Running a command over one connection: pick the mesh, connect, do the work, close, within a deadline.
import type { TPeerInfo } from "../protocol/frames";
import { ConfigError, MeshClient, MeshClientError, type TMeshConfig } from "../client";
import { CliFailure, storeOf, type CliIo } from "./io";

/** The joined mesh a command works on (by --mesh, or the only one). */
export function selectMesh(io: CliIo, name: string | undefined): TMeshConfig {
  try {
    return storeOf(io).select(name);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliFailure(error.message);
    throw error;
  }
}

const UNREACHABLE_TRIES = 4;

/** Connects to the mesh, runs `work`, and closes; fails after `timeoutMs` or on Ctrl-C. */
export async function withClient<T>(
  io: CliIo,
  config: TMeshConfig,
  timeoutMs: number,
  work: (client: MeshClient) => Promise<T>,
): Promise<T> {
  // This session does not show messages, so it must not take (ack) any: they wait for `mesh watch`.
  const client = new MeshClient(config, { receive: false, epochKeyStore: storeOf(io).epochKeyStore(config.meshId) });
  let timer: NodeJS.Timeout | undefined;
  let lastProblem = "";
  let unreachable = 0;
  let giveUp: (error: CliFailure) => void = () => {};
  const deadline = new Promise<never>((_, reject) => {
    giveUp = reject;
    timer = setTimeout(() => {
      const why = lastProblem ? ` (last problem: ${lastProblem})` : "";
      reject(
        new CliFailure(
          `no answer from the broker at ${config.brokerUrl} within ${timeoutMs / 1000} s${why}`,
          "TIMEOUT",
        ),
      );
    }, timeoutMs);
  });
  client.on("disconnected", (end) => {
    lastProblem =
      end.kind === "failed" ? end.message : end.kind === "refused" ? `HTTP ${end.status}` : `closed ${end.code}`;
    // A broker that cannot be reached at all is reported after a few quick tries, not at the deadline.
    if (end.kind === "failed" && !client.connected && ++unreachable >= UNREACHABLE_TRIES) {
      giveUp(new CliFailure(`cannot reach the broker at ${config.brokerUrl} (${end.message})`, "UNREACHABLE"));
    }
  });
  client.on("connected", () => (unreachable = 0));
  const interrupted = io.interrupted.then(() => Promise.reject(new CliFailure("interrupted", "INTERRUPTED")));
  try {
    return await Promise.race([client.connect().then(() => work(client)), deadline, interrupted]);
  } catch (error) {
    throw asFailure(error);
  } finally {
    clearTimeout(timer);
    await client.close();
  }
}

/** A client error as a failure for people (with its reason code). */
export function asFailure(error: unknown): unknown {
  if (error instanceof MeshClientError) return new CliFailure(`${error.message} (${error.code})`, error.code);
  return error;
}

/**
 * Member ids of `--to` names: an exact member id, else a display name (case-insensitive), else a
 * unique member-id prefix of at least 8 characters. Ambiguous or unknown names are failures.
 */
export function resolvePeers(names: readonly string[], peers: readonly TPeerInfo[], selfId: string): string[] {
  const others = peers.filter((p) => p.memberId !== selfId);
  // `@group`: every other member of that group (docs/cli.md); several names may overlap.
  const ids = names.flatMap((name) => {
    const group = /^@([a-z0-9][a-z0-9_-]{0,31})$/i.exec(name.trim())?.[1]?.toLowerCase();
    if (!group) return resolveOne(name, peers, others, selfId);
    const members = others.filter((p) => (p.groups ?? []).includes(group)).map((p) => p.memberId);
    if (members.length === 0) throw new CliFailure(`no other peer is in group @${group}`, "NOT_FOUND");
    return members;
  });
  return [...new Set(ids)];
}

function resolveOne(name: string, peers: readonly TPeerInfo[], others: readonly TPeerInfo[], selfId: string): string[] {
  return [name].map((name) => {
    const wanted = name.trim();
    if (wanted === "") throw new CliFailure("--to needs a peer name or member id");
    const self = peers.find((p) => p.memberId === selfId);
    if (
      wanted === selfId ||
      (self &&
        self.displayName.toLowerCase() === wanted.toLowerCase() &&
        !others.some((p) => p.displayName.toLowerCase() === wanted.toLowerCase()))
    ) {
      throw new CliFailure("a message cannot be sent to yourself");
    }
    const byId = others.find((p) => p.memberId === wanted);
    if (byId) return byId.memberId;
    const byName = others.filter((p) => p.displayName.toLowerCase() === wanted.toLowerCase());
    if (byName.length > 1)
      throw new CliFailure(
        `several peers are called ${wanted}: ${byName.map((p) => p.memberId).join(", ")}; use a member id`,
      );
    if (byName[0]) return byName[0].memberId;
    const byPrefix = wanted.length >= 8 ? others.filter((p) => p.memberId.startsWith(wanted.toLowerCase())) : [];
    if (byPrefix.length === 1 && byPrefix[0]) return byPrefix[0].memberId;
    const known = others.map((p) => p.displayName).join(", ") || "none";
    throw new CliFailure(`no peer called ${wanted} in this mesh (peers: ${known})`, "NOT_FOUND");
  });
}
