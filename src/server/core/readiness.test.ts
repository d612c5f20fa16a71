import { describe, expect, it } from "vitest";
import { Readiness } from "./readiness";

describe("Readiness", () => {
  it("is ready only while every check passes and shutdown has not begun", () => {
    let db = true;
    const readiness = new Readiness({ database: () => db, queues: () => true });
    expect(readiness.state()).toEqual({ ready: true, checks: { database: true, queues: true, accepting: true } });
    db = false;
    expect(readiness.state()).toEqual({ ready: false, checks: { database: false, queues: true, accepting: true } });
    db = true;
    readiness.drain();
    expect(readiness.isDraining).toBe(true);
    expect(readiness.state()).toEqual({ ready: false, checks: { database: true, queues: true, accepting: false } });
  });

  it("counts a check that throws as failed", () => {
    const readiness = new Readiness({
      listener: () => {
        throw new Error("boom");
      },
    });
    expect(readiness.state()).toEqual({ ready: false, checks: { listener: false, accepting: true } });
  });
});
