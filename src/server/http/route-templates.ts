// The `route` label of the web app's request metrics: the route template a path is served by
// (`/[locale]/engine/jobs/[jobId]`, `/api/jobs/[job_id]`), never the path itself, so nothing a client
// sends can add a label value (docs/observability.md, "Web app"). No Next.js imports: the web server
// loads it before Next.js, and the REST handler (inside Next.js) registers its paths here.

/** The label of every path no template serves. */
export const OTHER_ROUTE = "other";
/** Paths longer than this, or with more segments, are not matched at all (OTHER_ROUTE). */
const MAX_PATH_CHARS = 2_048;
const MAX_SEGMENTS = 32;
/** At most this many templates are kept (a registry that keeps growing is a bug, not a label source). */
const MAX_TEMPLATES = 1_000;

interface Node {
  statics: Map<string, Node>;
  /** `[name]`: one segment (of the allowed values when the parameter has some). */
  dynamic?: { allowed: ReadonlySet<string> | null; node: Node };
  /** `[...name]`: one segment or more; `[[...name]]`: none or more. */
  catchAll?: string;
  optionalCatchAll?: string;
  template?: string;
}

const newNode = (): Node => ({ statics: new Map() });

/** Next.js's own paths: static files and images are grouped, whatever follows. */
function internalRoute(segments: readonly string[]): string | null {
  if (segments[0] !== "_next") return null;
  if (segments[1] === "static") return "/_next/static";
  if (segments[1] === "image") return "/_next/image";
  return "/_next";
}

/** Splits a path into its non-empty segments (a trailing slash, or `//`, adds none). */
function segmentsOf(pathname: string): string[] | null {
  if (pathname.length > MAX_PATH_CHARS) return null;
  const segments = pathname.split("/").filter((s) => s.length > 0);
  return segments.length > MAX_SEGMENTS ? null : segments;
}

/** Matches paths to templates in Next.js's order: a static segment before `[param]`, before `[...catchAll]`. */
export class RouteMatcher {
  private readonly root = newNode();

  /**
   * `templates`: Next.js route paths (`/[locale]/meshes/[meshId]`, `/api/[...rest]`); `allowed`: the
   * values a parameter may take (`{ locale: ["en", "es", "de"] }`), so `/favicon.png` is not `/[locale]`.
   */
  constructor(
    templates: Iterable<string>,
    private readonly allowed: Record<string, readonly string[]> = {},
  ) {
    let kept = 0;
    for (const template of templates) {
      if (kept++ >= MAX_TEMPLATES) break;
      this.add(template);
    }
  }

  private add(template: string): void {
    const segments = segmentsOf(template);
    if (!segments) return;
    let node = this.root;
    for (const [i, segment] of segments.entries()) {
      const optional = /^\[\[\.\.\.[^\]]+\]\]$/.test(segment);
      const catchAll = /^\[\.\.\.[^\]]+\]$/.test(segment);
      if ((optional || catchAll) && i === segments.length - 1) {
        if (optional) node.optionalCatchAll ??= template;
        else node.catchAll ??= template;
        return;
      }
      const param = /^\[([^\].]+)\]$/.exec(segment)?.[1];
      if (param !== undefined) {
        const values = this.allowed[param];
        node.dynamic ??= { allowed: values ? new Set(values) : null, node: newNode() };
        node = node.dynamic.node;
      } else {
        let next = node.statics.get(segment);
        if (!next) node.statics.set(segment, (next = newNode()));
        node = next;
      }
    }
    node.template ??= template === "" ? "/" : template;
  }

  /** The template serving `pathname` (no query string), or OTHER_ROUTE. */
  match(pathname: string): string {
    const segments = segmentsOf(pathname);
    if (!segments) return OTHER_ROUTE;
    return internalRoute(segments) ?? this.walk(this.root, segments, 0) ?? OTHER_ROUTE;
  }

  private walk(node: Node, segments: readonly string[], i: number): string | null {
    if (i === segments.length) return node.template ?? node.optionalCatchAll ?? null;
    const segment = segments[i]!;
    const fixed = node.statics.get(segment);
    const viaStatic = fixed ? this.walk(fixed, segments, i + 1) : null;
    if (viaStatic) return viaStatic;
    const dynamic = node.dynamic;
    if (dynamic && (!dynamic.allowed || dynamic.allowed.has(segment))) {
      const viaParam = this.walk(dynamic.node, segments, i + 1);
      if (viaParam) return viaParam;
    }
    return node.catchAll ?? node.optionalCatchAll ?? null;
  }
}

const SUB_ROUTES = Symbol.for("review-mesh.route-templates.sub-routes");
type SubRouteStore = typeof globalThis & {
  [SUB_ROUTES]?: Map<string, { templates: readonly string[]; matcher?: RouteMatcher }>;
};

/**
 * Names the routes served inside a catch-all route (the REST API inside `/api/[...rest]`): a path the
 * catch-all serves is labelled with the most specific of them. Kept on `globalThis`, because the REST
 * handler runs in Next.js's module graph and the web server's metrics in the server's own.
 */
export function registerSubRoutes(catchAll: string, templates: readonly string[]): void {
  const store = globalThis as SubRouteStore;
  store[SUB_ROUTES] ??= new Map();
  store[SUB_ROUTES].set(catchAll, { templates: templates.slice(0, MAX_TEMPLATES) });
}

/** The template of `pathname`, refined by the sub-routes registered for the catch-all that serves it. */
export function routeOf(matcher: RouteMatcher, pathname: string): string {
  const route = matcher.match(pathname);
  const sub = (globalThis as SubRouteStore)[SUB_ROUTES]?.get(route);
  if (!sub) return route;
  sub.matcher ??= new RouteMatcher(sub.templates);
  const refined = sub.matcher.match(pathname);
  return refined === OTHER_ROUTE ? route : refined;
}

/** An OpenAPI path (`/jobs/{job_id}`) under a prefix as a Next.js-style template (`/api/jobs/[job_id]`). */
export function templateOfOpenApiPath(prefix: string, path: string): string {
  return `${prefix}${path.replace(/\{([^}/]+)\}/g, "[$1]")}`;
}
