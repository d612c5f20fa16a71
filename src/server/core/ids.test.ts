import { describe, expect, it } from "vitest";
import { z } from "zod";
import { uuidv7 } from "./ids";

describe("uuidv7", () => {
  it("is a valid version-7 UUID that sorts by time", () => {
    const a = uuidv7(1_700_000_000_000);
    const b = uuidv7(1_700_000_000_001);
    expect(z.uuid().safeParse(a).success).toBe(true);
    expect(a[14]).toBe("7");
    expect(a < b).toBe(true);
  });
});
