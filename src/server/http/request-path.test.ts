import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { REQUEST_PATH_HEADER } from "@/server/auth/callback-path";
import { withRequestPath } from "./request-path";

// What the proxy (src/proxy.ts) hands a page's layout, so a signed-out visit to that very page goes to
// sign-in and comes back to it (the layouts read the header through returnPath).
describe("the requested path the proxy forwards", () => {
  it("is the path and query the page was asked at", () => {
    const req = withRequestPath(new NextRequest("http://localhost:3000/en/admin/audit?q=team&page=2"));
    expect(req.headers.get(REQUEST_PATH_HEADER)).toBe("/en/admin/audit?q=team&page=2");
    expect(req.nextUrl.pathname).toBe("/en/admin/audit");
  });

  it("overwrites a path the client sent itself", () => {
    const req = withRequestPath(
      new NextRequest("http://localhost:3000/de/engine/jobs", {
        headers: { [REQUEST_PATH_HEADER]: "//evil.example/" },
      }),
    );
    expect(req.headers.get(REQUEST_PATH_HEADER)).toBe("/de/engine/jobs");
  });
});
