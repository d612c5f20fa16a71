// The package's manifest: what `npm install -g` reads.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
const manifest = read(path.join(import.meta.dirname, "package.json"));
const project = read(path.join(import.meta.dirname, "..", "..", "package.json"));

describe("the mesh package's manifest", () => {
  it("names the mesh bin, ships only dist/ and depends on nothing (everything is bundled)", () => {
    expect(manifest.bin).toEqual({ mesh: "dist/mesh.js" });
    expect(manifest.files).toEqual(["dist"]);
    expect(manifest.type).toBe("module");
    for (const field of ["dependencies", "optionalDependencies", "peerDependencies", "bundleDependencies"])
      expect(manifest[field], field).toBeUndefined();
    expect(manifest.scripts).toMatchObject({ prepack: expect.stringContaining("build.ts") });
    expect(manifest.engines).toEqual({ node: ">=20.19" });
  });

  it("has the project's version, so mesh --version says the same from source and installed", () => {
    expect(manifest.version).toBe(project.version);
  });
});
