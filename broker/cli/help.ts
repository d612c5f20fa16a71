// Help texts of `mesh` and each of its commands (docs/cli.md has the same, with examples).

export const MAIN_HELP = `mesh: join a mesh and exchange end-to-end encrypted messages through its broker

Usage: mesh <command> [options]

Commands:
  login                       sign this machine in to your account on the web app
  whoami                      the account this machine is signed in to, and who it is in each mesh
  logout                      sign this machine out (the token is revoked)
  join <link>                 join a mesh with an invite link (ic://join/…, https://…/join/…, or the short link)
  leave                       leave a mesh from this machine (its keys are deleted here)
  meshes                      list the meshes joined from this machine
  send <text…>                send a message to the whole mesh or to peers (--to)
  watch                       print messages (and status changes) as they arrive
  inbox                       print the unread messages once and stop (no watching)
  peers                       list the mesh's members: can each receive now, only send, or offline
  verify <peer>               the safety number of you and a peer; --mark it verified once you compared it
  status <status>             set your status (over a connection)
  status <message id>         what became of a message you sent: delivered, read, per recipient
  history                     the messages sent and received on this device (local, searchable)
  hook set-status <status>    set your status from a script (one HTTP request)
  hook inject                 an assistant's hook: print its session's unread messages as context
  mcp                         serve the mesh to a coding assistant (MCP over stdio)
  install claude-code         register mesh mcp, the status hooks and the message hooks with Claude Code
  uninstall claude-code       remove them again
  doctor                      check the configuration, the keys, the brokers and the installation

Every command takes --help. Keys and settings live in $MESH_HOME (default ~/.config/mesh).
Exit codes: 0 done, 1 failed (refused, unreachable, timed out), 2 wrong usage, 3 a verified peer's
keys changed (peers, verify).`;

export const HELP: Record<string, string> = {
  login: `Usage: mesh login [--web <url>] [--name <machine name>] [--json]

Signs this machine in to your account: prints a short code and a page of the web app; open the page
(signed in), check that it shows the same code, and approve. The token is kept in
$MESH_HOME/account.json (mode 0600). Meshes joined afterwards are linked to your account: they appear
in your dashboard, and several machines of yours show as your devices.

Options:
  --web <url>     the web app (default: $MESH_WEB_URL, else http://localhost:3000)
  --name <name>   how the approval page names this machine (default: its host name)
  --json          print {name, email, webUrl, accountFile}`,
  whoami: `Usage: mesh whoami [--mesh <slug>] [--session <id>] [--json]

Asks the web app who this machine is signed in as (a revoked sign-in says so), then prints who you are
in each joined mesh: this machine's member, or, inside an assistant session that has a member of its own
(CLAUDE_CODE_SESSION_ID, set by Claude Code for its tools and hooks), that member with its session and
its parent (this machine's member). Reads local files only.

Options:
  --mesh <slug>    only this mesh
  --session <id>   the assistant session to show (default: $CLAUDE_CODE_SESSION_ID)
  --json           print {name, email, webUrl, identities: [{mesh, member_id, name, role, session, parent}]}`,
  logout: `Usage: mesh logout

Revokes this machine's token at the web app and deletes $MESH_HOME/account.json. Meshes joined stay
joined (and linked to your account); use mesh leave to leave one.`,
  leave: `Usage: mesh leave [--mesh <slug>] [--json]

Leaves the mesh from this machine: the broker ends this peer's membership (its connections close, its
queued messages are dropped, the others move to a new key epoch), and the mesh's config and keys are
deleted from $MESH_HOME. Your other machines, and the membership you joined with in the browser, stay.

Options:
  --mesh <slug>   the mesh (needed when several are joined)
  --json          print {meshId, meshSlug, left}`,
  join: `Usage: mesh join <link> [--name <display name>] [--group <g>]... [--anonymous] [--json]

Joins the mesh of an invite link, in any form: ic://join/<token>, https://<host>/join/<token> (also
/<locale>/join/<token>) or the short link https://<host>/join/<code>, whose token is asked of that web
app first. Makes this peer's keys (they never leave this machine; only the public
halves are sent), asks the broker at the invite's address to join, and stores keys and settings in
$MESH_HOME/meshes/<mesh id>.json (mode 0600). Joining a mesh already joined rejoins with the same keys.
After mesh login, the account is sent only to a broker your web app vouches for; a link to any other
broker is refused (join it with --anonymous if you trust it).

Options:
  --name <name>   the name other peers see (1 to 80 characters; default: this machine's host name)
  --group <g>     join a group (repeatable; 1-32 of a-z 0-9 _ -): messages to @g reach you
  --anonymous     do not link the member to the account of mesh login
  --json          print the result as JSON`,
  meshes: `Usage: mesh meshes [--json]

Lists the meshes joined from this config directory: slug, your name and role, member id, broker.`,
  send: `Usage: mesh send [--mesh <slug>] [--to <peer>]... [--priority <p>] [--reply-to <id>] [--json] <text…>

Sends a text message, end-to-end encrypted. Without --to it goes to every other member of the mesh
(sealed with the mesh key); with --to only the named peers can read it (boxed to their keys). Waits
until the broker has stored the message. "-" as the text reads it from standard input.

Options:
  --mesh <slug>       the mesh (needed when several are joined)
  --to <peer>         a peer's display name or member id, or @group (its other members); repeatable
  --priority <p>      low, normal (default), high or urgent
  --reply-to <id>     the message id this one answers (carried inside the encrypted text)
  --timeout <s>       give up after this many seconds (default 30)
  --json              print {messageId, createdAt, recipients}

The message is recorded in the local history (mesh history); mesh status <message id> tells what
became of it.`,
  watch: `Usage: mesh watch [--mesh <slug>] [--presence] [--json]

Connects and prints each message as it arrives, one per line, until Ctrl-C; status changes are printed
too. Reconnects by itself (backoff with jitter). Messages queued while you were away arrive first.
Progress notes go to standard error.

Options:
  --mesh <slug>   the mesh (needed when several are joined)
  --presence      also print peers coming online and going offline
  --json          one JSON object per line: {"type":"message"|"status"|"presence", …}`,
  peers: `Usage: mesh peers [--mesh <slug>] [--json]

Lists the live members of the mesh: name, member id, role, presence, verified, status. Presence says
whether a message reaches the member now: "receiving" (an MCP session or mesh watch takes messages),
"sends only" (connected, but only to send: a one-shot command such as mesh send), or "offline". In
--json: online and receiving. Verified: "verified" for a peer you marked with mesh verify --mark whose
keys are still the ones you compared, "KEY CHANGED" (with a WARNING and exit code 3) when they changed.

Options:
  --mesh <slug>   the mesh (needed when several are joined)
  --timeout <s>   give up after this many seconds (default 30)
  --json          print the list as JSON (verification: unverified, verified or changed)`,
  verify: `Usage: mesh verify <peer> [--mark | --unmark] [--mesh <slug>] [--timeout <s>] [--json]

Prints the safety number of you and a peer: 60 digits made of both members' public keys, the same on
both sides. Compare it with the peer out of band (in person, on a call; they run mesh verify <you>): the
same digits mean the broker gave each of you the other's real keys. Then --mark remembers the peer as
verified (in $MESH_HOME/meshes/<mesh id>.verified); mesh peers shows it, and warns with exit code 3 if
that peer's keys change. A peer is named as for send --to: display name, member id or id prefix.

Options:
  --mark          mark the peer verified with the keys it has now (also after a warning)
  --unmark        forget the mark
  --mesh <slug>   the mesh (needed when several are joined)
  --timeout <s>   give up after this many seconds (default 30)
  --json          print {meshId, memberId, displayName, safetyNumber, verification, markedAt}`,
  status: `Usage: mesh status <status> [--text <text>] [--mesh <slug>] [--json]
       mesh status <message id>... [--mesh <slug>] [--json]

Sets your status (1 to 32 characters a-z, 0-9, _ or -, e.g. working, away) and an optional text (up to
200 characters). Every connected peer of the mesh sees it.

With message ids (up to 20) instead, tells what became of messages you sent, per recipient: queued at
the broker, sent to its device, delivered (its device has it), read (shown to its model or person), or
gone (it left the mesh). Delivery comes from the broker, which answers only the sender; reads come from
the read receipts a receiving session on this device (mesh mcp, watch or inbox) recorded.

Options:
  --text <text>   a short explanation
  --mesh <slug>   the mesh (needed when several are joined)
  --timeout <s>   give up after this many seconds (default 30)
  --json          print the broker's answer as JSON`,
  hook: `Usage: mesh hook set-status <status> [--text <text>] [--pid <pid>] [--mesh <slug>] [--hook-input] [--json]
       mesh hook inject [--mesh <mesh id>] [--pid <assistant pid>] [--max-chars <n>]

For scripts (editor hooks, CI steps): sets your status with one signed HTTP request to the broker's
POST /hook/set-status, without opening a connection. The request names the calling process (the
parent of mesh) and the working directory; the broker rate-limits per pair (30 a minute by default).
If you have no connection at the moment, the status is kept and shown from your next one.

Options:
  --text <text>   a short explanation
  --pid <pid>     the calling script's process id (default: the parent of mesh; pass --pid $$ when
                  running through npx, whose own process would otherwise be named)
  --mesh <slug>   the mesh (needed when several are joined)
  --hook-input    read the JSON of an assistant's hook on standard input and set the status of that
                  session's own member, when it has one (mesh install claude-code uses this)
  --json          print the broker's answer as JSON

inject is an assistant's hook (mesh install claude-code installs it for UserPromptSubmit and
PostToolUse): it reads the hook's JSON on standard input, takes the session's unread messages from its
local inbox (never asking the broker) and prints them as Claude Code's additionalContext, framed as
messages from named peers, at most --max-chars characters (default 8000); nothing when there are none.
A message it printed, or one already pushed as a channel event, is not printed again. It always exits 0.`,
  mcp: `Usage: mesh mcp [--mesh <slug>] [--session auto|<id>] [--channel on|off]

An MCP server over standard input and output for one joined mesh, for a coding assistant to start.
Tools: list_peers, send_message (to the mesh or to peers, with a priority, reply_to, and
wait_for_reply_s to get the answer in the same call), reply, read_messages (unread messages, marked
read; wait up to 60 s for one), message_status (delivered and read, per recipient) and set_status.
Only messages of current members are shown. Every message received is kept in
$MESH_HOME/inbox/<mesh id>.jsonl (mode 0600) until read_messages takes it, and in the local history.
With the channel on (default) each message is also pushed into the session as a Claude Code channel
event (notifications/claude/channel; start claude with --dangerously-load-development-channels
server:mesh), which sends its sender a read receipt. Logging notifications (logger "mesh") go too.
Nothing but the protocol is written to standard output; notes go to standard error.

Options:
  --mesh <slug>       the mesh (needed when several are joined)
  --session <id>      serve as this assistant session's own member (made at start with this machine's
                      key, ended at exit); auto: the id Claude Code gives ($CLAUDE_CODE_SESSION_ID), else
                      the parent process. Without it: as this machine's member.
  --channel on|off    push messages as channel events (on, default) or leave them to read_messages
                      and hooks (off)`,
  install: `Usage: mesh install claude-code [--scope user|project] [--mesh <slug>] [--channels] [--dry-run]

Registers "mesh mcp --session auto --channel off" as the MCP server "mesh" (each session its own
member; with --channels, "--channel on": messages pushed as Claude Code channel events), three hooks
that keep your status true (a prompt submitted sets working, the assistant stopping sets idle, the
session ending sets offline), and two that put unread messages into the session where channels are off
(mesh hook inject on UserPromptSubmit and PostToolUse). User scope
(default): ~/.claude/settings.json (hooks) and ~/.claude.json (server); project scope:
.claude/settings.json and .mcp.json in this folder. Every other setting is kept; each file changed is
first copied to <file>.bak-<time>. Running it again changes nothing.

Options:
  --scope <s>          user (default) or project
  --mesh <slug>        the mesh (needed when several are joined)
  --channels           push messages as channel events (start claude with
                       --dangerously-load-development-channels server:mesh); default: the hooks bring them
  --dry-run            print the files as they would be, change nothing
  --settings <file>    another settings file for the hooks
  --mcp-config <file>  another file for the MCP server`,
  history: `Usage: mesh history [--mesh <slug>] [--peer <name>] [--search <text>] [--limit <n>] [--json]

The messages this device sent and received in the mesh, oldest first (the newest --limit, default 50),
from the local history: plaintext that never leaves this machine ($MESH_HOME/history/<member id>.jsonl,
mode 0600), with what is known of each (read or unread; for the ones you sent, the receipts).
No connection is opened. Retention: MESH_HISTORY_DAYS (default 30) and MESH_HISTORY_MAX_MESSAGES
(default 10000); 0 keeps no history.

Options:
  --peer <name>      only messages from that peer, or sent directly to it (name or member id)
  --search <text>    only messages whose text holds this (case-insensitive)
  --limit <n>        the newest n (default 50)
  --json             one JSON object per message`,
  inbox: `Usage: mesh inbox [--mesh <slug>] [--timeout <s>] [--json]

Prints the unread messages once, without watching: first those a "mesh mcp" session kept in
$MESH_HOME/inbox, then those queued for you at the broker (which are then acknowledged). Ends when
all are printed; "no unread messages" on standard error when there were none.

Options:
  --mesh <slug>   the mesh (needed when several are joined)
  --timeout <s>   give up after this many seconds (default 30)
  --json          one JSON line per message, as mesh watch --json`,
  doctor: `Usage: mesh doctor [--scope user|project]

Checks that $MESH_HOME is private (0700 folders, 0600 files), that each mesh's file parses and its
keys derive, that each mesh's broker answers /health, and whether "mesh install claude-code" is in
place. One line per check (ok, warn, FAIL); exit code 1 when a check fails.`,
  uninstall: `Usage: mesh uninstall claude-code [--scope user|project] [--dry-run]

Removes the "mesh" MCP server and this mesh's hooks from the files "mesh install" writes,
keeping everything else (a backup of each file changed first).

Options:
  --scope <s>          user (default) or project
  --dry-run            print the files as they would be, change nothing
  --settings <file>    another settings file for the hooks
  --mcp-config <file>  another file for the MCP server`,
};
