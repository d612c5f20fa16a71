import { describe, expect, it } from "vitest";
import { parseClientFrame } from "./frames";

describe("parseClientFrame", () => {
  it("accepts a v1 ping with or without an id", () => {
    expect(parseClientFrame('{"v":1,"type":"ping","id":"a"}')).toEqual({
      ok: true,
      frame: { v: 1, type: "ping", id: "a" },
    });
    expect(parseClientFrame('{"v":1,"type":"ping"}')).toMatchObject({ ok: true });
  });

  it.each([
    ["not json", "frame is not JSON"],
    ["[]", "invalid frame"],
    ["null", "invalid frame"],
    ['{"v":2,"type":"ping"}', "unsupported protocol version"],
    ['{"type":"ping"}', "unsupported protocol version"],
    ['{"v":1,"type":"nope"}', "invalid frame at type"],
    ['{"v":1,"type":"ping","extra":1}', "invalid frame"],
    ['{"v":1,"type":"ping","id":""}', "invalid frame at id"],
  ])("refuses %s", (text, message) => {
    const parsed = parseClientFrame(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
  });

  it("echoes only a valid id", () => {
    expect(parseClientFrame('{"v":1,"type":"nope","id":"x1"}')).toMatchObject({ ok: false, id: "x1" });
    expect(parseClientFrame(`{"v":1,"type":"nope","id":"${"x".repeat(100)}"}`)).toEqual({
      ok: false,
      message: expect.any(String),
    });
  });
});
