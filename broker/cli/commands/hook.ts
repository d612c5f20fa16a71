import { HookError, setStatusViaHook } from "../../client";
import { CliFailure, EXIT, parseCommandArgs, UsageError, type CliIo } from "../io";
import { selectMesh } from "../session";
import { checkStatus } from "./status";

/** `mesh hook set-status <status> [--text …]`: one signed POST /hook/set-status, for scripts. */
export async function hookCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== "set-status")
    throw new UsageError(
      sub ? `unknown hook command ${sub}; the one hook command is set-status` : "give a hook command: set-status",
    );
  const { values, positionals } = parseCommandArgs(rest, {
    mesh: { type: "string" },
    json: { type: "boolean" },
    text: { type: "string" },
    pid: { type: "string" },
  });
  const wanted = checkStatus(positionals, values.text);
  const pid = values.pid === undefined ? io.ppid : Number(values.pid);
  if (!Number.isInteger(pid) || pid < 1 || pid > 2 ** 31 - 1)
    throw new UsageError("--pid takes a process id (a positive whole number)");
  const config = selectMesh(io, values.mesh);
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
    io.out(`Status set to ${answer.status} in mesh ${config.meshSlug}; ${shown}.`);
  }
  return EXIT.ok;
}
