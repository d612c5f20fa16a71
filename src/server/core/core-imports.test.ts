import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The broker and the worker load server/core under plain Node: it must not depend on Next or React.
const FORBIDDEN =
  /from\s+["'](next(\/[^"']*)?|next-auth(\/[^"']*)?|react(-dom)?(\/[^"']*)?|server-only|@\/[^"']*)["']|import\s+["'](server-only|next\/[^"']*)["']/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : [],
  );
}

describe("src/server/core", () => {
  it("imports nothing from next, next-auth, react, server-only or the @/ alias", () => {
    const offenders = files(import.meta.dirname)
      .filter((f) => !f.endsWith(".test.ts"))
      .filter((f) => FORBIDDEN.test(readFileSync(f, "utf8")))
      .map((f) => path.relative(import.meta.dirname, f));
    expect(offenders).toEqual([]);
  });
});
