import { MeshClient, type PresenceEvent, type ReceivedMessage, type StatusEvent } from "../../client";
import { CliFailure, EXIT, parseCommandArgs, printable, storeOf, UsageError, type CliIo } from "../io";
import { historyOf, keepHistory } from "../local-history";
import { asFailure, selectMesh } from "../session";

/** `mesh watch`: print messages, status changes and presence as they arrive, until Ctrl-C. */
export async function watchCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    mesh: { type: "string" },
    json: { type: "boolean" },
    presence: { type: "boolean" },
  });
  if (positionals.length > 0) throw new UsageError("no arguments expected");
  const config = selectMesh(io, values.mesh);
  const client = new MeshClient(config, { epochKeyStore: storeOf(io).epochKeyStore(config.meshId), senderGate: true });
  keepHistory(client, historyOf(io, config), (line) => io.err(`warning: ${line}`));
  const json = values.json === true;
  const nameOf = (memberId: string, known?: string | null) =>
    printable(known ?? client.peer(memberId)?.displayName ?? memberId.slice(0, 8));

  client.on("message", (m) =>
    io.out(json ? JSON.stringify({ type: "message", ...m }) : formatMessage(m, nameOf(m.from, m.fromName))),
  );
  client.on("status", (s) =>
    io.out(json ? JSON.stringify({ type: "status", ...pickStatus(s) }) : formatStatus(s, nameOf(s.memberId))),
  );
  client.on("presence", (p) => {
    // Every `mesh send` connects and leaves, so presence lines are shown only when asked for.
    if (!values.presence || p.memberId === config.memberId) return;
    io.out(
      json
        ? JSON.stringify({
            type: "presence",
            memberId: p.memberId,
            displayName: p.displayName,
            online: p.online,
            receiving: p.receiving,
          })
        : formatPresence(p),
    );
  });
  client.on("rejected", (r) =>
    io.err(`warning: message ${r.messageId} from ${r.from} was dropped: not a member of the mesh`),
  );
  client.on("undecryptable", (u) =>
    io.err(`warning: message ${u.messageId} from ${nameOf(u.from)} could not be read (${u.reason}); skipped`),
  );
  let lastEnd = "";
  client.on("disconnected", (end) => {
    lastEnd =
      end.kind === "failed"
        ? end.message
        : end.kind === "refused"
          ? `HTTP ${end.status}`
          : `closed ${end.code}${end.reason ? ` ${end.reason}` : ""}`;
  });
  client.on("reconnecting", (r) =>
    io.err(
      `no connection to ${config.brokerUrl} (${lastEnd}); retrying in ${(r.delayMs / 1000).toFixed(1)} s (attempt ${r.attempt})`,
    ),
  );
  client.on("connected", (w) => {
    io.err(
      `connected to mesh ${config.meshSlug} as ${printable(config.displayName)}${w.queued ? `; ${w.queued} queued message(s) follow` : ""} (Ctrl-C to stop)`,
    );
    // Names of the senders, for the lines printed; a failure here only means ids are shown instead.
    void client.peers().catch(() => undefined);
  });

  const fatal = new Promise<never>((_, reject) => client.once("fatal", (e) => reject(asFailure(e))));
  fatal.catch(() => undefined);
  try {
    await Promise.race([client.connect().then(() => Promise.race([io.interrupted, fatal])), io.interrupted]);
  } catch (error) {
    await client.close();
    throw error instanceof CliFailure ? error : asFailure(error);
  }
  await client.close();
  return EXIT.ok;
}

function time(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "--:--:--" : d.toTimeString().slice(0, 8);
}

/** One line per message: time, sender, whether it was for the whole mesh or for you, the text. */
export function formatMessage(m: ReceivedMessage, from: string): string {
  return `${time(m.createdAt)}  ${from} → ${m.direct ? "you" : "mesh"}: ${printable(m.text)}`;
}

function formatStatus(s: StatusEvent, who: string): string {
  return `${time(s.at)}  * ${who} is ${printable(s.status)}${s.text ? `: ${printable(s.text)}` : ""}`;
}

function formatPresence(p: PresenceEvent): string {
  const state = !p.online ? "offline" : p.receiving ? "online (receiving)" : "online (sends only)";
  return `${time(new Date().toISOString())}  * ${printable(p.displayName)} is ${state}`;
}

function pickStatus(s: StatusEvent) {
  return { memberId: s.memberId, status: s.status, text: s.text, at: s.at };
}
