import { MAX_STATUS_IDS, ZStatus, ZStatusText } from "../../protocol/frames";
import { EXIT, MESH_OPTIONS, parseCommandArgs, printable, timeoutOf, UsageError, type CliIo } from "../io";
import { historyOf, messageReports, type MessageReport } from "../local-history";
import { selectMesh, withClient } from "../session";

const MESSAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Checks a status and its text as the broker will (frames.ts), so mistakes are usage errors here. */
export function checkStatus(positionals: string[], text: string | undefined): { status: string; text: string | null } {
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError("give exactly one status, e.g. working");
  if (!ZStatus.safeParse(positionals[0]).success)
    throw new UsageError("a status is 1 to 32 characters a-z, 0-9, _ or - (starting with a letter or digit)");
  if (text !== undefined && !ZStatusText.safeParse(text).success)
    throw new UsageError("--text is at most 200 characters");
  return { status: positionals[0], text: text ?? null };
}

/**
 * `mesh status <status> [--text …]`: set this peer's status over a connection. `mesh status <message
 * id>…`: what became of messages you sent, per recipient (a message id is never a valid status: 36
 * characters). Delivery comes from the broker, reads from the local history (read receipts that a
 * receiving session here, `mesh mcp` or `mesh watch`, recorded).
 */
export async function statusCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { ...MESH_OPTIONS, text: { type: "string" } });
  if (positionals.length > 0 && positionals.every((p) => MESSAGE_ID.test(p))) {
    if (values.text !== undefined) throw new UsageError("--text is for setting a status, not with message ids");
    if (positionals.length > MAX_STATUS_IDS) throw new UsageError(`at most ${MAX_STATUS_IDS} message ids at once`);
    return messageStatusCommand([...new Set(positionals)], values, io);
  }
  const wanted = checkStatus(positionals, values.text);
  const config = selectMesh(io, values.mesh);
  const answer = await withClient(io, config, timeoutOf(values.timeout), (client) =>
    client.setStatus(wanted.status, wanted.text),
  );
  if (values.json)
    io.out(JSON.stringify({ memberId: answer.memberId, status: answer.status, text: answer.text, at: answer.at }));
  else io.out(`Status set to ${answer.status}${answer.text ? ` (${answer.text})` : ""} in mesh ${config.meshSlug}.`);
  return EXIT.ok;
}

async function messageStatusCommand(
  ids: string[],
  values: { mesh?: string; json?: boolean; timeout?: string },
  io: CliIo,
): Promise<number> {
  const config = selectMesh(io, values.mesh);
  const history = historyOf(io, config);
  const reports = await withClient(io, config, timeoutOf(values.timeout), async (client) => {
    const peers = await client.peers();
    return messageReports(ids, history, client, (id) => peers.find((p) => p.memberId === id)?.displayName);
  });
  for (const r of reports) io.out(values.json ? JSON.stringify(r) : formatReport(r));
  return EXIT.ok;
}

const time = (iso: string | null) => (iso ? new Date(iso).toTimeString().slice(0, 8) : "");

/** A report for people: the message, then one line per recipient. */
export function formatReport(r: MessageReport): string {
  if (!r.at_broker && r.recipients.length === 0 && r.sent_at === null)
    return `Message ${r.message_id}: not known here (not one you sent from this device, or expired at the broker).`;
  const to = r.to === "mesh" ? "the mesh" : r.to.map(printable).join(", ");
  const text = r.text === null ? "" : `: ${printable(r.text.length > 60 ? `${r.text.slice(0, 60)}…` : r.text)}`;
  const lines = [`Message ${r.message_id}, sent ${r.sent_at ?? "?"} to ${to}${text}`];
  const width = Math.max(4, ...r.recipients.map((p) => printable(p.name ?? p.member_id.slice(0, 8)).length));
  for (const p of r.recipients)
    lines.push(
      `  ${printable(p.name ?? p.member_id.slice(0, 8)).padEnd(width)}  ${p.state.padEnd(9)}  ${time(p.read_at ?? p.delivered_at)}`.trimEnd(),
    );
  const c = r.counts;
  const summary = (["read", "delivered", "queued", "gone"] as const)
    .filter((k) => c[k] > 0)
    .map((k) => `${c[k]} ${k}`)
    .join(", ");
  lines.push(
    `${r.recipient_count ?? r.recipients.length} recipient(s)${summary ? `: ${summary}` : ""}` +
      (r.at_broker ? "" : " (the broker no longer holds it: last known states)"),
  );
  return lines.join("\n");
}
