import type { CliIo } from "../io";

// `mesh hook <command>`: each command is loaded only when named, so `mesh hook inject`, which an
// assistant runs on every prompt and tool call, loads none of the client's heavy modules (zod, ws, the
// crypto library) that `set-status` needs.

/** `mesh hook set-status …` (a signed status update) or `mesh hook inject …` (unread messages into a session). */
export async function hookCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "inject") return (await import("./hook-inject")).hookInjectCommand(rest, io);
  if (sub === "set-status") return (await import("./hook-set-status")).hookSetStatusCommand(rest, io);
  const { UsageError } = await import("../io");
  throw new UsageError(
    sub
      ? `unknown hook command ${sub}; the hook commands are set-status and inject`
      : "give a hook command: set-status or inject",
  );
}
