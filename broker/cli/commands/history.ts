import type { HistoryEntry } from "../../client";
import { EXIT, parseCommandArgs, printable, UsageError, type CliIo } from "../io";
import { historyOf } from "../local-history";
import { selectMesh } from "../session";

/**
 * `mesh history [--peer <name>] [--search <text>] [--limit <n>]`: the messages this device sent and
 * received in a mesh, from its local history (no connection), oldest first, with what is known of
 * each (read, or the receipts of the ones sent).
 */
export async function historyCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    mesh: { type: "string" },
    peer: { type: "string" },
    search: { type: "string" },
    limit: { type: "string" },
    json: { type: "boolean" },
  });
  if (positionals.length > 0) throw new UsageError("no arguments expected");
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100_000)
    throw new UsageError("--limit takes a whole number from 1 to 100000");
  if (values.search !== undefined && values.search.length > 1_000)
    throw new UsageError("--search is at most 1000 characters");
  const config = selectMesh(io, values.mesh);
  const history = historyOf(io, config);
  const entries = history.list({ peer: values.peer, search: values.search, limit });
  for (const e of entries) io.out(values.json ? JSON.stringify(e) : formatEntry(e));
  if (!values.json && entries.length === 0)
    io.err(
      history.enabled
        ? "no messages in the history"
        : "the history is off (MESH_HISTORY_DAYS or MESH_HISTORY_MAX_MESSAGES is 0)",
    );
  return EXIT.ok;
}

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? "----------  --:--:--"
    : `${d.toISOString().slice(0, 10)}  ${d.toTimeString().slice(0, 8)}`;
}

/** One line per message: when, who to whom, the text, and what is known of it. */
export function formatEntry(e: HistoryEntry): string {
  const name = (id: string, known?: string | null) => printable(known ?? id.slice(0, 8));
  if (e.dir === "in") {
    const state = e.readAt ? "read" : "unread";
    return `${when(e.at)}  ${name(e.from, e.fromName)} → ${e.direct ? "you" : "mesh"}: ${printable(e.text)}  (${state})`;
  }
  const ids = e.to.kind === "peer" ? [e.to.memberId] : e.to.kind === "peers" ? e.to.memberIds : [];
  const to = ids.length ? ids.map((id) => name(id, e.toNames?.[id])).join(", ") : "mesh";
  const receipts = Object.values(e.receipts ?? {});
  const read = receipts.filter((r) => r.state === "read").length;
  const delivered = receipts.filter((r) => r.state === "delivered").length;
  const of = e.recipients ?? ids.length;
  const known = [read ? `${read} read` : "", delivered ? `${delivered} delivered` : ""].filter(Boolean).join(", ");
  return `${when(e.at)}  you → ${to}: ${printable(e.text)}  (${known || "sent"}${of ? ` of ${of}` : ""})`;
}
