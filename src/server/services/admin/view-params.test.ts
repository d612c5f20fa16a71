import { describe, expect, it } from "vitest";
import { adminViews, viewQuery } from "./view-params";

describe("admin view params", () => {
  it("keeps valid params, drops unknown, empty and refused ones", () => {
    const v = adminViews.meshes({ q: " team ", visibility: "public", tier: "", sort: "owner", page: "-1", other: "x" });
    expect(v.params).toEqual({ q: "team", visibility: "public" });
    expect(v.input).toMatchObject({
      q: "team",
      visibility: "public",
      sort: "createdAt",
      dir: "desc",
      page: 1,
      pageSize: 20,
    });
  });

  it("reads URLSearchParams and the first of repeated values", () => {
    const v = adminViews.sessions(new URLSearchParams("status=active&status=disconnected&sort=disconnectedAt&dir=asc"));
    expect(v.input).toMatchObject({ status: "active", sort: "disconnectedAt", dir: "asc" });
    expect(adminViews.invites({ revoked: ["yes", "no"] }).params).toEqual({ revoked: "yes" });
  });

  it("turns audit days into an inclusive UTC range", () => {
    const v = adminViews.audit({ from: "2026-11-01", to: "2026-11-02", eventType: "message_sent" });
    expect(v.input.from?.toISOString()).toBe("2026-11-01T00:00:00.000Z");
    expect(v.input.to?.toISOString()).toBe("2026-11-03T00:00:00.000Z");
    expect(adminViews.audit({ from: "yesterday", meshId: "not-a-uuid" }).params).toEqual({});
  });

  it("keeps every filter the API takes, the audit search included", () => {
    expect(adminViews.audit({ q: "nonsense" }).input.q).toBe("nonsense");
    expect(adminViews.audit(new URLSearchParams("q=x&eventType=message_sent")).params).toEqual({
      q: "x",
      eventType: "message_sent",
    });
  });

  it("builds links that reset the page unless the page is what changes", () => {
    const params = { q: "a b", page: "3", sort: "name" };
    expect(viewQuery(params, { dir: "asc" })).toBe("?q=a+b&sort=name&dir=asc");
    expect(viewQuery(params, { page: "4" })).toBe("?q=a+b&page=4&sort=name");
    expect(viewQuery({}, { q: undefined })).toBe("");
  });
});
