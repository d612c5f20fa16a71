import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { LOCALES } from "../i18n/routing";
import { RouteMatcher } from "../server/http/route-templates";

/** Routes of the build that no request is served by directly. */
const INTERNAL = new Set(["/_global-error", "/_not-found"]);
/** Metadata files of the app directory that Next.js serves as routes of their own name. */
const METADATA_FILE = /^(favicon\.ico|(apple-)?icon\d*\.\w+|robots\.txt|sitemap\.xml|manifest\.(json|webmanifest))$/;
const ROUTE_FILE = /^(page|route)\.(tsx?|jsx?)$/;
/** Files of public/ named as routes of their own, at most this many (beyond, they are OTHER_ROUTE). */
const MAX_PUBLIC_FILES = 200;

/** The app's route templates from the build (`.next/app-path-routes-manifest.json`), else from src/app. */
export function appRouteTemplates(root: string, dev: boolean): string[] {
  const manifest = path.join(root, ".next", "app-path-routes-manifest.json");
  // In development the build's manifest may be older than the sources: they are read instead.
  if (!dev && existsSync(manifest)) {
    const routes = JSON.parse(readFileSync(manifest, "utf8")) as Record<string, string>;
    return Object.values(routes).filter((r) => !INTERNAL.has(r));
  }
  return scanAppDir(path.join(root, "src", "app"), "");
}

/** Route templates of an app directory as Next.js derives them: groups `(x)` add no segment; `@slot` and `_private` folders are no routes. */
export function scanAppDir(dir: string, prefix: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (entry.name.startsWith("@") || entry.name.startsWith("_")) continue;
      const next = entry.name.startsWith("(") && entry.name.endsWith(")") ? prefix : `${prefix}/${entry.name}`;
      out.push(...scanAppDir(path.join(dir, entry.name), next));
    } else if (ROUTE_FILE.test(entry.name)) {
      out.push(prefix || "/");
    } else if (METADATA_FILE.test(entry.name)) {
      out.push(`${prefix}/${entry.name}`);
    }
  }
  return out;
}

/** The files of public/ as routes (`/robots.txt`), up to MAX_PUBLIC_FILES. */
export function publicFileRoutes(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string, prefix: string) => {
    if (!existsSync(at)) return;
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (out.length >= MAX_PUBLIC_FILES) return;
      if (entry.isDirectory()) walk(path.join(at, entry.name), `${prefix}/${entry.name}`);
      else out.push(`${prefix}/${entry.name}`);
    }
  };
  walk(dir, "");
  return out;
}

/** The matcher of the web app's `route` label: the app's routes, public files, `[locale]` only for the locales served. */
export function webRouteMatcher(root: string, dev: boolean): RouteMatcher {
  return new RouteMatcher([...appRouteTemplates(root, dev), ...publicFileRoutes(path.join(root, "public"))], {
    locale: LOCALES,
  });
}
