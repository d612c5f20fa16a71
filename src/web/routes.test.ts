import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../server/core/project-root";
import { OTHER_ROUTE } from "../server/http/route-templates";
import { publicFileRoutes, scanAppDir, webRouteMatcher } from "./routes";

const tmp = mkdtempSync(path.join(os.tmpdir(), "routes-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the web app's route templates", () => {
  it("are read from src/app as Next.js derives them", () => {
    const templates = scanAppDir(path.join(PROJECT_ROOT, "src", "app"), "");
    for (const t of [
      "/[locale]",
      "/[locale]/engine/jobs/[jobId]",
      "/[locale]/[...rest]",
      "/api/[...rest]",
      "/api/health",
      "/api/trpc/[trpc]",
      "/favicon.ico",
      "/icon.svg",
    ]) {
      expect(templates).toContain(t);
    }
    expect(templates.filter((t) => /[()@]|\/_/.test(t))).toEqual([]);
  });

  it("leave out route groups, parallel slots and private folders", () => {
    const app = path.join(tmp, "app");
    for (const dir of ["(marketing)/about", "@modal/x", "_lib", "shop/[id]"])
      mkdirSync(path.join(app, dir), { recursive: true });
    for (const file of [
      "(marketing)/about/page.tsx",
      "@modal/x/page.tsx",
      "_lib/route.ts",
      "shop/[id]/page.tsx",
      "page.tsx",
      "layout.tsx",
      "favicon.ico",
    ]) {
      writeFileSync(path.join(app, file), "");
    }
    expect(scanAppDir(app, "").sort()).toEqual(["/", "/about", "/favicon.ico", "/shop/[id]"]);
    mkdirSync(path.join(tmp, "public", "img"), { recursive: true });
    writeFileSync(path.join(tmp, "public", "robots.txt"), "");
    writeFileSync(path.join(tmp, "public", "img", "a.png"), "");
    expect(publicFileRoutes(path.join(tmp, "public")).sort()).toEqual(["/img/a.png", "/robots.txt"]);
  });

  it("label this app's paths by template, with the locales it serves", () => {
    const matcher = webRouteMatcher(PROJECT_ROOT, true);
    expect(matcher.match("/en/engine/jobs/0193a2b4-1c2d-7e3f-8a9b-0c1d2e3f4a5b")).toBe("/[locale]/engine/jobs/[jobId]");
    expect(matcher.match("/de/dashboard/meshes/abc/live")).toBe("/[locale]/dashboard/meshes/[meshId]/live");
    expect(matcher.match("/robots.txt")).toBe("/robots.txt");
    expect(matcher.match("/xx/engine")).toBe(OTHER_ROUTE);
  });
});
