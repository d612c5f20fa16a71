import { describe, expect, it } from "vitest";
import { meshCacheDir } from "./compile-cache";

describe("the compile cache's folder", () => {
  it("is the user's cache folder of each platform", () => {
    expect(meshCacheDir({}, "linux", "/home/ana")).toBe("/home/ana/.cache/mesh");
    expect(meshCacheDir({ XDG_CACHE_HOME: "/var/cache/ana" }, "linux", "/home/ana")).toBe("/var/cache/ana/mesh");
    expect(meshCacheDir({}, "darwin", "/Users/ana")).toBe("/Users/ana/Library/Caches/mesh");
    expect(meshCacheDir({ LOCALAPPDATA: "C:/Users/ana/AppData/Local" }, "win32", "C:/Users/ana")).toMatch(
      /^C:\/Users\/ana\/AppData\/Local[\\/]mesh[\\/]Cache$/,
    );
  });

  it("ignores a relative XDG_CACHE_HOME and gives none without a home", () => {
    expect(meshCacheDir({ XDG_CACHE_HOME: "cache" }, "linux", "/home/ana")).toBe("/home/ana/.cache/mesh");
    expect(meshCacheDir({}, "linux", "")).toBeUndefined();
    expect(meshCacheDir({}, "darwin", "")).toBeUndefined();
  });
});
