import { MESSAGE_PRIORITIES, type TMessagePriority } from "../../protocol/frames";
import type { TPeerInfo } from "../../protocol/frames";
import { EXIT, MESH_OPTIONS, parseCommandArgs, timeoutOf, UsageError, type CliIo } from "../io";
import { historyOf, recordSent } from "../local-history";
import { resolvePeers, selectMesh, withClient } from "../session";
import { refuseChangedRecipients, verificationMarks } from "../verification";

/**
 * `mesh send [--to <peer>]... [--reply-to <message id>] <text>`: encrypt and send one message; waits for
 * the broker's `sent`, then records it in the local history. A direct message to a peer marked verified
 * whose keys changed since is refused (exit 1, KEY_CHANGED).
 */
export async function sendCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    ...MESH_OPTIONS,
    to: { type: "string", multiple: true },
    priority: { type: "string" },
    "reply-to": { type: "string" },
  });
  if (positionals.length === 0) throw new UsageError("give the text to send");
  const priority = values.priority ?? "normal";
  if (!(MESSAGE_PRIORITIES as readonly string[]).includes(priority))
    throw new UsageError(`--priority is one of ${MESSAGE_PRIORITIES.join(", ")}`);
  const text =
    positionals.length === 1 && positionals[0] === "-"
      ? (await io.readStdin()).replace(/\n$/, "")
      : positionals.join(" ");
  if (text === "") throw new UsageError("the message is empty");
  const replyTo = values["reply-to"];
  if (replyTo !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(replyTo))
    throw new UsageError("--reply-to takes a message id (a lower-case UUID)");
  const timeoutMs = timeoutOf(values.timeout);
  const config = selectMesh(io, values.mesh);

  const history = historyOf(io, config);
  let peers: TPeerInfo[] | undefined;
  let to: string[] | undefined;
  const receipt = await withClient(io, config, timeoutMs, async (client) => {
    if (values.to?.length) {
      peers = await client.peers();
      to = resolvePeers(values.to, peers, config.memberId);
      refuseChangedRecipients(verificationMarks(io, config.meshId), peers, to);
    }
    return client.send(text, { to, priority: priority as TMessagePriority, replyTo });
  });
  try {
    recordSent(history, config, receipt, { text, to, peers, priority: priority as TMessagePriority, replyTo });
  } catch (error) {
    io.err(`warning: the message was sent but not recorded in the history (${(error as Error).message})`);
  }
  if (values.json) io.out(JSON.stringify(receipt));
  else
    io.out(
      `Sent to ${receipt.recipients} recipient${receipt.recipients === 1 ? "" : "s"} (message ${receipt.messageId}).`,
    );
  return EXIT.ok;
}
