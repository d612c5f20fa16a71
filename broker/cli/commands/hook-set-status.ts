import { findSession, HookError, sessionConfig, setStatusViaHook } from "../../client";
import { CliFailure, EXIT, parseCommandArgs, storeOf, UsageError, type CliIo } from "../io";
import { selectMesh } from "../session";
import { readHookInput } from "./hook-input";
import { checkStatus } from "./status";

/**
 * `mesh hook set-status <status> [--text …] [--pid <n>] [--hook-input]`: one signed POST
 * /hook/set-status, for scripts. With `--hook-input` it reads the JSON an assistant's hook gets on
 * standard input and speaks for that session's own member when the session has one (docs/cli.md, "One
 * identity per session"), else for the machine's member.
 */
export async function hookSetStatusCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    mesh: { type: "string" },
    json: { type: "boolean" },
    text: { type: "string" },
    pid: { type: "string" },
    "hook-input": { type: "boolean" },
  });
  const wanted = checkStatus(positionals, values.text);
  const pid = values.pid === undefined ? io.ppid : Number(values.pid);
  if (!Number.isInteger(pid) || pid < 1 || pid > 2 ** 31 - 1)
    throw new UsageError("--pid takes a process id (a positive whole number)");
  const machine = selectMesh(io, values.mesh);
  let config = machine;
  if (values["hook-input"]) {
    const input = readHookInput(await io.readStdin(), io.env);
    const session = findSession(storeOf(io).home, machine.meshId, { sessionId: input.sessionId, assistantPid: pid });
    if (session && session.parentMemberId === machine.memberId) config = sessionConfig(machine, session);
  }
  let answer;
  try {
    answer = await setStatusViaHook(config, { ...wanted, pid, cwd: io.cwd });
  } catch (error) {
    if (!(error instanceof HookError)) throw error;
    if (error.code === "UNREACHABLE") throw new CliFailure(error.message, error.code);
    const where = error.status ? `, HTTP ${error.status}` : "";
    const retry = error.retryAfterSeconds ? `; try again in ${error.retryAfterSeconds} s` : "";
    throw new CliFailure(`status hook refused: ${error.message} (${error.code}${where})${retry}`, error.code);
  }
  if (values.json) io.out(JSON.stringify(answer));
  else {
    const shown = answer.connected
      ? "connected peers see it now"
      : "you have no connection now; it is kept and shown from your next one";
    const who = config === machine ? "" : ` as ${config.displayName}`;
    io.out(`Status set to ${answer.status}${who} in mesh ${config.meshSlug}; ${shown}.`);
  }
  return EXIT.ok;
}
