import { z } from "zod";
import { ZAdminMeshesInput } from "./list-meshes.schema";
import { ZAdminSessionsInput } from "./list-sessions.schema";
import { ZAdminInvitesInput } from "./list-invites.schema";
import { ZAdminAuditInput } from "./list-audit.schema";

/** Search params as Next hands them to a page, or as a route handler reads them from its URL. */
export type RawParams = Record<string, string | string[] | undefined> | URLSearchParams;

/** A parsed view of an admin table: the params worth keeping in the URL, and the service input. */
export interface AdminView<I> {
  params: Record<string, string>;
  input: I;
}

function first(raw: RawParams, key: string): string | undefined {
  const value = raw instanceof URLSearchParams ? raw.get(key) : raw[key];
  return (Array.isArray(value) ? value[0] : value) ?? undefined;
}

/**
 * A reader of one table's URL state. The keys it keeps are the schema's own, so a filter the API
 * takes cannot be left out of the page or its CSV (the audit search once was). Unknown keys and
 * empty values are dropped; a value the schema refuses (a hand-edited `?sort=owner`, `?page=-1`) is
 * dropped too, so a bad link still shows the table with its defaults instead of an error page.
 */
function view<S extends z.ZodObject, I>(schema: S, toInput: (value: z.output<S>) => I) {
  const keys = Object.keys(schema.shape);
  return (raw: RawParams): AdminView<I> => {
    const params: Record<string, string> = {};
    for (const key of keys) {
      const value = first(raw, key)?.trim();
      if (value) params[key] = value;
    }
    for (;;) {
      const parsed = schema.safeParse(params);
      if (parsed.success) return { params, input: toInput(parsed.data) };
      const bad = parsed.error.issues.map((i) => String(i.path[0] ?? "")).filter((k) => k in params);
      if (bad.length === 0) throw parsed.error;
      for (const key of bad) delete params[key];
    }
  };
}

const same = <T>(value: T) => value;

/** Calendar days (UTC) in the URL of the audit log; `to` is inclusive. */
const ZDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)));
const ZAuditView = ZAdminAuditInput.omit({ from: true, to: true }).extend({
  from: ZDay.optional(),
  to: ZDay.optional(),
});
const DAY_MS = 86_400_000;

export const adminViews = {
  meshes: view(ZAdminMeshesInput, same),
  sessions: view(ZAdminSessionsInput, same),
  invites: view(ZAdminInvitesInput, same),
  audit: view(ZAuditView, ({ from, to, ...rest }) => ({
    ...rest,
    from: from ? new Date(`${from}T00:00:00Z`) : undefined,
    // The service's `to` is exclusive; a day picked in the form means "up to the end of that day".
    to: to ? new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS) : undefined,
  })),
};

export type AdminTable = keyof typeof adminViews;
export const ADMIN_TABLES = Object.keys(adminViews) as AdminTable[];

/**
 * The query string of a view with some params changed (undefined removes one). Any change other than
 * the page itself starts again at page 1, since the old page number means nothing under new filters.
 */
export function viewQuery(params: Record<string, string>, changes: Record<string, string | undefined>): string {
  const next: Record<string, string> = { ...params };
  if (!("page" in changes)) delete next.page;
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === "") delete next[key];
    else next[key] = value;
  }
  const query = new URLSearchParams(next).toString();
  return query ? `?${query}` : "";
}
