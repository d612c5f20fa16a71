import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET } from "./route";

const get = (file: string) =>
  GET(new Request(`http://test/api/docs/${encodeURIComponent(file)}`), { params: Promise.resolve({ file }) });

describe("GET /api/docs/<file>", () => {
  it("streams the allow-listed Swagger UI files with their types", async () => {
    const js = await get("swagger-ui-bundle.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const body = Buffer.from(await js.arrayBuffer());
    expect(
      body.equals(await readFile(path.join(process.cwd(), "node_modules", "swagger-ui-dist", "swagger-ui-bundle.js"))),
    ).toBe(true);
    expect(js.headers.get("content-length")).toBe(String(body.byteLength));
    const css = await get("swagger-ui.css");
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
  });

  it("answers 404 for any other name, including paths out of the folder", async () => {
    for (const file of [
      "index.html",
      "package.json",
      "swagger-initializer.js",
      "../../package.json",
      "..%2F..%2Fpackage.json",
      "toString",
      "__proto__",
    ]) {
      const res = await get(file);
      expect(res.status, file).toBe(404);
      expect(await res.json(), file).toEqual({ error: { code: "NOT_FOUND", message: "asset_not_found" } });
    }
  });
});
