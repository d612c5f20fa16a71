import { describe, expect, it } from "vitest";
import { csrfRefusal } from "./csrf";

const COOKIE = "authjs.session-token=abc";
const req = (method: string, headers: Record<string, string>) =>
  new Request("http://app.test:3000/api/my/meshes", { method, headers: { host: "app.test:3000", ...headers } });
const code = (r: Request, allowed: string[] = []) => csrfRefusal(r, allowed)?.message ?? "ok";

describe("csrfRefusal", () => {
  it("lets through reads and requests without the session cookie (API keys, the command line)", () => {
    expect(code(req("GET", { cookie: COOKIE, origin: "http://evil.test" }))).toBe("ok");
    expect(code(req("POST", { "content-type": "text/plain", origin: "http://evil.test" }))).toBe("ok");
  });

  it("requires JSON of a state-changing request with the cookie", () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""]) {
      expect(code(req("POST", { cookie: COOKIE, "content-type": type, origin: "http://app.test:3000" })), type).toBe(
        "json_required",
      );
    }
    expect(
      code(
        req("DELETE", {
          cookie: `a=1; ${COOKIE}`,
          "content-type": "application/json; charset=utf-8",
          origin: "http://app.test:3000",
        }),
      ),
    ).toBe("ok");
  });

  it("requires the app's own origin, or same-origin fetch metadata without one", () => {
    const json = { cookie: COOKIE, "content-type": "application/json" };
    expect(code(req("POST", { ...json, origin: "http://evil.test" }))).toBe("csrf_refused");
    expect(code(req("POST", { ...json, origin: "http://app.test:3001" }))).toBe("csrf_refused");
    expect(code(req("POST", { ...json, origin: "https://app.test:3000" }))).toBe("csrf_refused");
    expect(code(req("POST", { ...json, origin: "https://app.example" }), ["https://app.example"])).toBe("ok");
    expect(code(req("POST", { ...json, "sec-fetch-site": "same-origin" }))).toBe("ok");
    for (const site of ["same-site", "cross-site", "none"])
      expect(code(req("POST", { ...json, "sec-fetch-site": site })), site).toBe("csrf_refused");
    expect(code(req("POST", json))).toBe("csrf_refused");
    expect(
      code(
        req("POST", {
          cookie: "__Secure-authjs.session-token=x",
          "content-type": "application/json",
          origin: "http://evil.test",
        }),
      ),
    ).toBe("csrf_refused");
  });
});
