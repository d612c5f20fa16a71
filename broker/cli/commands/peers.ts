import { EXIT, MESH_OPTIONS, parseCommandArgs, printable, timeoutOf, UsageError, type CliIo } from "../io";
import { selectMesh, withClient } from "../session";
import { columns } from "./meshes";

/** `mesh peers`: the live members of the mesh, whether each can receive now (or only sends), and their status. */
export async function peersCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, MESH_OPTIONS);
  if (positionals.length > 0) throw new UsageError("no arguments expected");
  const config = selectMesh(io, values.mesh);
  const peers = await withClient(io, config, timeoutOf(values.timeout), (client) => client.peers());
  if (values.json) {
    io.out(JSON.stringify(peers.map((p) => ({ ...p, you: p.memberId === config.memberId }))));
    return EXIT.ok;
  }
  const rows = peers.map((p) => [
    printable(p.displayName) + (p.memberId === config.memberId ? " (you)" : ""),
    p.memberId,
    p.role,
    // Whether a message reaches it now: "receiving" (an MCP session, mesh watch), or connected only to send.
    p.receiving ? "receiving" : p.online ? "sends only" : "offline",
    p.status ? printable(p.status + (p.statusText ? `: ${p.statusText}` : "")) : "",
    printable(p.groups.map((g) => `@${g}`).join(" ")),
  ]);
  for (const line of columns([["NAME", "MEMBER ID", "ROLE", "PRESENCE", "STATUS", "GROUPS"], ...rows]))
    io.out(line.trimEnd());
  return EXIT.ok;
}
