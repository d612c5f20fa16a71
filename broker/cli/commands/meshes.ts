import { meshKeysOf } from "../../client";
import { EXIT, parseCommandArgs, storeOf, UsageError, type CliIo } from "../io";

/** `mesh meshes`: the meshes joined from this config directory (public fields only, never keys). */
export async function meshesCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { json: { type: "boolean" } });
  if (positionals.length > 0) throw new UsageError("no arguments expected");
  const store = storeOf(io);
  const { meshes, broken } = store.list();
  for (const file of broken) io.err(`warning: ${file} is not a valid mesh config and was skipped`);
  if (values.json) {
    const rows = meshes.map((m) => {
      const keys = meshKeysOf(m);
      return {
        meshId: m.meshId,
        meshSlug: m.meshSlug,
        memberId: m.memberId,
        displayName: m.displayName,
        role: m.role,
        brokerUrl: m.brokerUrl,
        joinedAt: m.joinedAt,
        peerPubkey: keys.signPublicKey,
        boxPubkey: keys.boxPublicKey,
      };
    });
    io.out(JSON.stringify(rows));
    return EXIT.ok;
  }
  if (meshes.length === 0) {
    io.out(`No mesh joined yet (config directory ${store.home}). Run: mesh join <link>`);
    return EXIT.ok;
  }
  const table = [
    ["MESH", "NAME", "ROLE", "MEMBER ID", "BROKER"],
    ...meshes.map((m) => [m.meshSlug, m.displayName, m.role, m.memberId, m.brokerUrl]),
  ];
  for (const line of columns(table)) io.out(line);
  return EXIT.ok;
}

/** Left-aligned columns separated by two spaces. */
export function columns(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  "));
}
