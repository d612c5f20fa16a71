import { describe, expect, it } from "vitest";
import { waitAtMost } from "./lifecycle";

describe("waitAtMost", () => {
  it("returns when the work settles, before the limit", async () => {
    let settled = false;
    const work = new Promise<void>((resolve) =>
      setTimeout(() => {
        settled = true;
        resolve();
      }, 10),
    );
    await waitAtMost(work, 60_000);
    expect(settled).toBe(true);
  });

  it("gives up after the limit while the work is still pending", async () => {
    let settled = false;
    const work = new Promise<void>(() => {}).then(() => (settled = true));
    await waitAtMost(work, 20);
    expect(settled).toBe(false);
  });

  it("does not reject when the work fails", async () => {
    await expect(waitAtMost(Promise.reject(new Error("boom")), 1_000)).resolves.toBeUndefined();
  });
});
