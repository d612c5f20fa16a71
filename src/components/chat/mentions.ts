// `@name` and `@group` mentions: what the composer completes and what a message highlights. A person's
// handle is their display name with spaces as `_` (names are free text; handles are one word).

/** A mention the composer offers: `@handle` of a member or of a group. */
export interface MentionOption {
  handle: string;
  kind: "person" | "group";
}

export const handleOf = (displayName: string) => displayName.trim().replace(/\s+/g, "_");

/** The `@word` being typed just before the caret, with where it starts; undefined when none. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | undefined {
  const match = /(^|\s)@([\p{L}\p{N}_.-]*)$/u.exec(text.slice(0, caret));
  if (!match) return undefined;
  return { start: caret - (match[2]?.length ?? 0) - 1, query: match[2] ?? "" };
}

/** The options that start with the query (case-insensitive), people first, at most eight. */
export function mentionOptions(people: readonly string[], groups: readonly string[], query: string): MentionOption[] {
  const q = query.toLowerCase();
  const seen = new Set<string>();
  const out: MentionOption[] = [];
  for (const [kind, list] of [
    ["person", people.map(handleOf)],
    ["group", groups],
  ] as const)
    for (const handle of list)
      if (handle.toLowerCase().startsWith(q) && !seen.has(handle.toLowerCase())) {
        seen.add(handle.toLowerCase());
        out.push({ handle, kind });
      }
  return out.slice(0, 8);
}

/** The text split into plain parts and mentions of known handles (case-insensitive). */
export function splitMentions(text: string, known: ReadonlySet<string>): { text: string; mention: boolean }[] {
  const parts: { text: string; mention: boolean }[] = [];
  let last = 0;
  for (const m of text.matchAll(/@([\p{L}\p{N}_.-]+)/gu)) {
    const handle = (m[1] ?? "").replace(/[.-]+$/, "");
    if (!known.has(handle.toLowerCase())) continue;
    const at = m.index ?? 0;
    if (at > last) parts.push({ text: text.slice(last, at), mention: false });
    parts.push({ text: `@${handle}`, mention: true });
    last = at + 1 + handle.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), mention: false });
  return parts;
}

/** Whether the text mentions one of these handles (the reader's own, their groups'). */
export function mentionsAny(text: string, handles: ReadonlySet<string>): boolean {
  return splitMentions(text, handles).some((p) => p.mention);
}
