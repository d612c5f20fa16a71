import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { keepLease, LeaseLost } from "./lease";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "performance"] });
});
afterEach(() => vi.useRealTimers());

const why = (signal: AbortSignal) => (signal.reason as LeaseLost).why;

describe("a run's lease kept by its worker", () => {
  it("is renewed every heartbeat and held as long as renewals succeed, whatever the run's length", async () => {
    let renewals = 0;
    const lease = keepLease({
      renew: async () => (renewals++, true),
      leaseMs: 1_000,
      heartbeatMs: 300,
      claimedAt: performance.now(),
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(lease.lost).toBe(false);
    expect(renewals).toBe(33);
    lease.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(renewals).toBe(33);
    expect(lease.lost).toBe(false);
  });

  it("is lost at once when a renewal finds the row no longer this run's", async () => {
    let held = true;
    const lease = keepLease({
      renew: async () => held,
      leaseMs: 1_000,
      heartbeatMs: 300,
      claimedAt: performance.now(),
    });
    await vi.advanceTimersByTimeAsync(650);
    held = false;
    await vi.advanceTimersByTimeAsync(300);
    expect(lease.lost).toBe(true);
    expect(why(lease.signal)).toBe("taken");
  });

  it("is lost 90 % of a lease after the sending of the last good renewal when later ones fail or never answer", async () => {
    const claimedAt = performance.now();
    let mode: "ok" | "fail" | "hang" = "ok";
    const errors: unknown[] = [];
    const lease = keepLease({
      renew: () =>
        mode === "ok"
          ? Promise.resolve(true)
          : mode === "fail"
            ? Promise.reject(new Error("database away"))
            : new Promise<boolean>(() => {}),
      leaseMs: 1_000,
      heartbeatMs: 300,
      claimedAt,
      onRenewError: (e) => errors.push(e),
    });
    // Renewals sent at 300 and 600 succeed; from 900 on they fail, then hang.
    await vi.advanceTimersByTimeAsync(650);
    mode = "fail";
    await vi.advanceTimersByTimeAsync(400);
    mode = "hang";
    // The last good renewal was sent at 600: the lease is lost at 1500 (a tenth before the database's 1600).
    await vi.advanceTimersByTimeAsync(1_499 - 1_050);
    expect(lease.lost).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(lease.lost).toBe(true);
    expect(why(lease.signal)).toBe("expired");
    expect(errors.length).toBeGreaterThan(0);
  });

  it("counts its first lease from the claim's sending", async () => {
    const claimedAt = performance.now();
    await vi.advanceTimersByTimeAsync(800); // the run starts late (its slot was busy taking)
    const lease = keepLease({
      renew: () => new Promise<boolean>(() => {}),
      leaseMs: 1_000,
      heartbeatMs: 300,
      claimedAt,
    });
    await vi.advanceTimersByTimeAsync(99);
    expect(lease.lost).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(lease.lost).toBe(true);
  });
});
