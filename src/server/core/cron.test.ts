import { describe, expect, it } from "vitest";
import { CronError, nextCronTime, parseCron } from "./cron";

const next = (expr: string, after: string) => nextCronTime(parseCron(expr), new Date(after))?.toISOString() ?? null;

describe("cron", () => {
  it("finds the next minute of common expressions, in UTC, strictly after the given time", () => {
    expect(next("* * * * *", "2026-11-25T10:15:30Z")).toBe("2026-11-25T10:16:00.000Z");
    expect(next("*/15 * * * *", "2026-11-25T10:15:00Z")).toBe("2026-11-25T10:30:00.000Z");
    expect(next("0 * * * *", "2026-11-25T10:15:00Z")).toBe("2026-11-25T11:00:00.000Z");
    expect(next("30 6 * * *", "2026-11-25T06:30:00Z")).toBe("2026-11-26T06:30:00.000Z");
    expect(next("0 9 * * mon-fri", "2026-11-27T10:00:00Z")).toBe("2026-11-30T09:00:00.000Z"); // Friday → Monday
    expect(next("0 0 1 jan *", "2026-11-25T00:00:00Z")).toBe("2027-01-01T00:00:00.000Z");
    expect(next("0 0 29 2 *", "2026-03-01T00:00:00Z")).toBe("2028-02-29T00:00:00.000Z");
    expect(next("5,10-12 3 * * *", "2026-11-25T03:10:00Z")).toBe("2026-11-25T03:11:00.000Z");
    expect(next("0 12 * * 7", "2026-11-25T00:00:00Z")).toBe("2026-11-29T12:00:00.000Z"); // 7 is Sunday
    expect(next("@daily", "2026-12-31T23:59:00Z")).toBe("2027-01-01T00:00:00.000Z");
    expect(next("@hourly", "2026-11-25T10:00:00Z")).toBe("2026-11-25T11:00:00.000Z");
  });

  it("runs on a day matching either day field when both are restricted", () => {
    // The 1st of the month or any Friday.
    expect(next("0 0 1 * 5", "2026-11-25T00:00:00Z")).toBe("2026-11-27T00:00:00.000Z");
    expect(next("0 0 1 * 5", "2026-11-28T00:00:00Z")).toBe("2026-12-01T00:00:00.000Z");
  });

  it("gives no time for a date that never comes", () => {
    expect(next("0 0 31 2 *", "2026-01-01T00:00:00Z")).toBeNull();
  });

  it("refuses malformed expressions, naming the field", () => {
    for (const [bad, message] of [
      ["* * * *", "expected 5 fields"],
      ["60 * * * *", "minute: 60 is outside 0-59"],
      ["* 24 * * *", "hour"],
      ["* * 0 * *", "day of month"],
      ["* * * 13 *", "month"],
      ["* * * * 8", "day of week"],
      ["*/0 * * * *", "step"],
      ["5-1 * * * *", "backwards"],
      ["a * * * *", "not a number"],
      ["1,,2 * * * *", "minute"],
    ] as const) {
      expect(() => parseCron(bad), bad).toThrow(CronError);
      expect(() => parseCron(bad), bad).toThrow(message);
    }
  });
});
