import { afterEach, describe, expect, it } from "vitest";
import { OTHER_ROUTE, RouteMatcher, registerSubRoutes, routeOf, templateOfOpenApiPath } from "./route-templates";

// Templates as the build's app-path-routes-manifest.json lists them (a part of this app's).
const TEMPLATES = [
  "/[locale]",
  "/[locale]/[...rest]",
  "/[locale]/engine",
  "/[locale]/engine/jobs",
  "/[locale]/engine/jobs/[jobId]",
  "/[locale]/dashboard/meshes/[meshId]",
  "/[locale]/dashboard/meshes/new",
  "/[locale]/pipelines/[pipelineId]/executions/[executionId]/evidence/[ref]",
  "/api/[...rest]",
  "/api/health",
  "/api/jobs/[job_id]/reviews/export",
  "/api/trpc/[trpc]",
  "/api/auth/[...nextauth]",
  "/favicon.ico",
  "/robots.txt",
  "/docs/[[...slug]]",
];
const matcher = new RouteMatcher(TEMPLATES, { locale: ["en", "es", "de"] });
const SUB = Symbol.for("review-mesh.route-templates.sub-routes");

afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[SUB];
});

describe("RouteMatcher", () => {
  it("labels a path with the template that serves it, static segments before parameters before catch-alls", () => {
    expect(matcher.match("/en")).toBe("/[locale]");
    expect(matcher.match("/de/engine/")).toBe("/[locale]/engine");
    expect(matcher.match("/en/engine/jobs/0193a2b4-1c2d-7e3f-8a9b-0c1d2e3f4a5b")).toBe("/[locale]/engine/jobs/[jobId]");
    expect(matcher.match("/es/dashboard/meshes/new")).toBe("/[locale]/dashboard/meshes/new");
    expect(matcher.match("/es/dashboard/meshes/m-1")).toBe("/[locale]/dashboard/meshes/[meshId]");
    expect(matcher.match("/en/pipelines/review-analytics/executions/e1/evidence/r9")).toBe(
      "/[locale]/pipelines/[pipelineId]/executions/[executionId]/evidence/[ref]",
    );
    expect(matcher.match("/en/no/such/page")).toBe("/[locale]/[...rest]");
    expect(matcher.match("/en/engine/jobs/x/y")).toBe("/[locale]/[...rest]");
    expect(matcher.match("/api/health")).toBe("/api/health");
    expect(matcher.match("/api/jobs/j1/reviews/export")).toBe("/api/jobs/[job_id]/reviews/export");
    expect(matcher.match("/api/jobs/j1")).toBe("/api/[...rest]");
    expect(matcher.match("/api/trpc/my.meshes,my.homeMeshes")).toBe("/api/trpc/[trpc]");
    expect(matcher.match("/api/auth/callback/github")).toBe("/api/auth/[...nextauth]");
    expect(matcher.match("/favicon.ico")).toBe("/favicon.ico");
    expect(matcher.match("/docs")).toBe("/docs/[[...slug]]");
    expect(matcher.match("/docs/a/b")).toBe("/docs/[[...slug]]");
  });

  it("takes a locale parameter only for the locales served, and groups Next.js's own files", () => {
    expect(matcher.match("/fr/engine")).toBe(OTHER_ROUTE);
    expect(matcher.match("/engine")).toBe(OTHER_ROUTE);
    expect(matcher.match("/")).toBe(OTHER_ROUTE);
    expect(matcher.match("/_next/static/chunks/abc123.js")).toBe("/_next/static");
    expect(matcher.match("/_next/image")).toBe("/_next/image");
    expect(matcher.match("/_next/webpack-hmr")).toBe("/_next");
  });

  it("labels over-long paths and paths of too many segments as other", () => {
    expect(matcher.match(`/en/${"x".repeat(3_000)}`)).toBe(OTHER_ROUTE);
    expect(matcher.match(`/en${"/a".repeat(40)}`)).toBe(OTHER_ROUTE);
  });

  it("keeps the label set bounded: 1,000 random paths give no more labels than there are templates (plus three)", () => {
    const labels = new Set<string>();
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
    const word = () =>
      Math.random()
        .toString(36)
        .slice(2, 2 + 1 + Math.floor(Math.random() * 12));
    const prefixes = [
      "",
      "/en",
      "/es",
      "/de",
      "/fr",
      "/api",
      "/api/jobs",
      "/_next",
      "/_next/static",
      "/en/engine/jobs",
      "/en/dashboard/meshes",
    ];
    for (let i = 0; i < 1_000; i++) {
      const depth = Math.floor(Math.random() * 6);
      const path = `${pick(prefixes)}${Array.from({ length: depth }, () => `/${encodeURIComponent(word())}`).join("")}${Math.random() < 0.2 ? "/" : ""}`;
      labels.add(matcher.match(path));
    }
    // Every label is a template, one of Next.js's three groups, or other: never a path.
    const allowed = new Set([...TEMPLATES, "/_next/static", "/_next/image", "/_next", OTHER_ROUTE]);
    for (const label of labels) expect(allowed.has(label), label).toBe(true);
    expect(labels.size).toBeLessThanOrEqual(TEMPLATES.length + 4);
  });
});

describe("sub-routes of a catch-all (the REST API)", () => {
  it("refines the catch-all's label with the registered templates, and falls back to it", () => {
    expect(routeOf(matcher, "/api/jobs/j1")).toBe("/api/[...rest]");
    registerSubRoutes(
      "/api/[...rest]",
      ["/api/jobs/{job_id}", "/api/my/meshes", "/api/my/meshes/{meshId}"].map((p) =>
        p.includes("{") ? templateOfOpenApiPath("", p) : p,
      ),
    );
    expect(routeOf(matcher, "/api/jobs/0193a2b4")).toBe("/api/jobs/[job_id]");
    expect(routeOf(matcher, "/api/my/meshes")).toBe("/api/my/meshes");
    expect(routeOf(matcher, "/api/my/meshes/m1")).toBe("/api/my/meshes/[meshId]");
    expect(routeOf(matcher, "/api/nothing/here")).toBe("/api/[...rest]");
    // A route of its own stays itself.
    expect(routeOf(matcher, "/api/jobs/j1/reviews/export")).toBe("/api/jobs/[job_id]/reviews/export");
    expect(routeOf(matcher, "/en/engine")).toBe("/[locale]/engine");
  });

  it("writes OpenAPI paths as templates", () => {
    expect(templateOfOpenApiPath("/api", "/batches/{batch_id}/reviews")).toBe("/api/batches/[batch_id]/reviews");
  });
});
