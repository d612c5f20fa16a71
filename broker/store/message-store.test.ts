import { describe, expect, it } from "vitest";
import { uuidArray } from "./message-store";

describe("UUID array parameters", () => {
  it("writes UUIDs as an array literal", () => {
    expect(uuidArray([])).toBe("{}");
    expect(uuidArray(["0190a5c4-1b2c-7d3e-8f40-123456789abc", "0190A5C4-1B2C-7D3E-8F40-123456789ABD"])).toBe(
      "{0190a5c4-1b2c-7d3e-8f40-123456789abc,0190A5C4-1B2C-7D3E-8F40-123456789ABD}",
    );
  });

  it("refuses anything else rather than write it into the literal", () => {
    for (const bad of [
      '0190a5c4-1b2c-7d3e-8f40-123456789abc","x',
      "0190a5c4-1b2c-7d3e-8f40-123456789abc,0190a5c4-1b2c-7d3e-8f40-123456789abd",
      "{}",
      "",
    ]) {
      expect(() => uuidArray([bad])).toThrow(TypeError);
    }
  });
});
