import { EXIT, MESH_OPTIONS, parseCommandArgs, printable, timeoutOf, UsageError, type CliIo } from "../io";
import { selectMesh, withClient } from "../session";
import { verificationAmong } from "../../protocol/safety-number";
import { verificationMarks } from "../verification";
import { columns } from "./meshes";

/**
 * `mesh peers`: the live members of the mesh, whether each can receive now (or only sends), their status,
 * and whether this machine verified them (`mesh verify --mark`); exit code 3, with a warning, when a
 * verified peer's keys changed since.
 */
export async function peersCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, MESH_OPTIONS);
  if (positionals.length > 0) throw new UsageError("no arguments expected");
  const config = selectMesh(io, values.mesh);
  const marks = verificationMarks(io, config.meshId);
  const peers = await withClient(io, config, timeoutOf(values.timeout), (client) => client.peers());
  const listed = peers.map((p) => ({ ...p, verification: verificationAmong(marks, p) }));
  if (values.json) {
    io.out(JSON.stringify(listed.map((p) => ({ ...p, you: p.memberId === config.memberId }))));
  } else {
    const rows = listed.map((p) => [
      printable(p.displayName) + (p.memberId === config.memberId ? " (you)" : ""),
      p.memberId,
      p.role,
      // Whether a message reaches it now: "receiving" (an MCP session, mesh watch), or connected only to send.
      p.receiving ? "receiving" : p.online ? "sends only" : "offline",
      p.verification === "verified" ? "verified" : p.verification === "changed" ? "KEY CHANGED" : "",
      p.status ? printable(p.status + (p.statusText ? `: ${p.statusText}` : "")) : "",
      printable(p.groups.map((g) => `@${g}`).join(" ")),
    ]);
    for (const line of columns([["NAME", "MEMBER ID", "ROLE", "PRESENCE", "VERIFIED", "STATUS", "GROUPS"], ...rows]))
      io.out(line.trimEnd());
  }
  const changed = listed.filter((p) => p.verification === "changed");
  for (const p of changed) {
    const mark = marks.find((m) => m.memberId === p.memberId);
    io.err(
      `WARNING: the keys of ${printable(p.displayName)} (member ${p.memberId}) changed since you verified them ` +
        `on ${mark?.markedAt ?? "?"}; compare the safety number again: mesh verify ${p.memberId}`,
    );
  }
  return changed.length > 0 ? EXIT.keyChanged : EXIT.ok;
}
