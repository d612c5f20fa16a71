// Exit codes and the two kinds of failure every command reports. A module of its own, importing nothing:
// the entry (main.ts) needs these before any command is loaded, and loads nothing else with them.

/**
 * Exit codes of every command; `keyChanged`: the command did its work, but a peer marked verified
 * (`mesh verify --mark`) now has other keys (`mesh peers`, `mesh verify`), which a script must not miss.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, keyChanged: 3 } as const;

/** A mistake in how the command was called: printed with the usage hint, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A failure to report plainly (exit code 1); `code` is the reason code when the broker gave one. */
export class CliFailure extends Error {
  override name = "CliFailure";
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}
