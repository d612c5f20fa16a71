import { describe, expect, it } from "vitest";
import { handleOf, mentionAt, mentionOptions, mentionsAny, splitMentions } from "./mentions";

describe("mentions", () => {
  it("finds the @word before the caret and completes people, then groups", () => {
    expect(mentionAt("hello @an", 9)).toEqual({ start: 6, query: "an" });
    expect(mentionAt("mail@example", 12)).toBeUndefined();
    expect(mentionAt("@", 1)).toEqual({ start: 0, query: "" });
    expect(mentionOptions(["Ana María", "anton", "Bo"], ["analysts", "backend"], "an")).toEqual([
      { handle: "Ana_María", kind: "person" },
      { handle: "anton", kind: "person" },
      { handle: "analysts", kind: "group" },
    ]);
    expect(handleOf("  cli  bot ")).toBe("cli_bot");
  });

  it("highlights known handles only, and tells a message that mentions the reader", () => {
    const known = new Set(["ana", "backend"]);
    expect(splitMentions("hi @Ana, see @nobody and @backend.", known)).toEqual([
      { text: "hi ", mention: false },
      { text: "@Ana", mention: true },
      { text: ", see @nobody and ", mention: false },
      { text: "@backend", mention: true },
      { text: ".", mention: false },
    ]);
    expect(mentionsAny("ping @backend", new Set(["backend"]))).toBe(true);
    expect(mentionsAny("ping @back", new Set(["backend"]))).toBe(false);
  });
});
