// The JSON object an assistant's hook command gets on standard input (Claude Code's hooks reference:
// `session_id`, `transcript_path`, `cwd`, `hook_event_name`, and per event `prompt`, `tool_name`, …).
// Node built-ins only: the inject hook runs on every prompt and tool call.

/** What the mesh's hooks use of it. */
export interface HookInput {
  sessionId: string | null;
  event: string | null;
  cwd: string | null;
}

/** Parsing a tool's whole answer (PostToolUse carries it) is not worth it past this: the fields are read from the head. */
const PARSE_MAX_CHARS = 4 * 1024 * 1024;

const field = (text: string, name: string): string | null => {
  const m = new RegExp(`"${name}"\\s*:\\s*"((?:[^"\\\\]|\\\\.){0,4096})"`).exec(text);
  if (!m?.[1]) return null;
  try {
    return JSON.parse(`"${m[1]}"`) as string;
  } catch {
    return null;
  }
};

/**
 * The session id, event name and working folder of a hook's input; the session id falls back to
 * CLAUDE_CODE_SESSION_ID (Claude Code sets it for hook commands too). Never throws.
 */
export function readHookInput(text: string, env: Readonly<Record<string, string | undefined>>): HookInput {
  let sessionId: unknown = null;
  let event: unknown = null;
  let cwd: unknown = null;
  if (text.length <= PARSE_MAX_CHARS) {
    try {
      const json = JSON.parse(text) as Record<string, unknown>;
      if (json && typeof json === "object") ({ session_id: sessionId, hook_event_name: event, cwd } = json);
    } catch {
      // not JSON: the environment only
    }
  } else {
    const head = text.slice(0, 65_536);
    [sessionId, event, cwd] = [field(head, "session_id"), field(head, "hook_event_name"), field(head, "cwd")];
  }
  const str = (v: unknown) => (typeof v === "string" && v.length > 0 && v.length <= 4096 ? v : null);
  return { sessionId: str(sessionId) ?? str(env.CLAUDE_CODE_SESSION_ID), event: str(event), cwd: str(cwd) };
}
