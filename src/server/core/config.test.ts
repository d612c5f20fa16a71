import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError, envBool, envPort, parseConfig, ZDatabaseUrl } from "./config";

const Schema = z.object({ DATABASE_URL: ZDatabaseUrl, PORT: envPort(3000), DEBUG: envBool(false) });

describe("parseConfig", () => {
  it("applies defaults and converts types", () => {
    expect(parseConfig(Schema, { DATABASE_URL: "postgres://u@h/db" })).toEqual({
      DATABASE_URL: "postgres://u@h/db",
      PORT: 3000,
      DEBUG: false,
    });
    expect(parseConfig(Schema, { DATABASE_URL: "postgres://h/db", PORT: "8080", DEBUG: "true" }).PORT).toBe(8080);
  });

  it.each([
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL must begin with postgres://"],
    [{ DATABASE_URL: "" }, "DATABASE_URL is required (it is set but empty)"],
    [{}, "DATABASE_URL is required"],
    [{ DATABASE_URL: "postgres://h/d", PORT: "70000" }, "PORT must be a whole number from 1 to 65535"],
    [{ DATABASE_URL: "postgres://h/d", PORT: "abc" }, "PORT must be a whole number"],
  ])("names the variable of a bad value: %j", (env, message) => {
    try {
      parseConfig(Schema, env);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toContain(message);
      expect((error as ConfigError).message).not.toContain("\n");
    }
  });

  it("reports an empty DATABASE_URL once, as empty", () => {
    expect(() => parseConfig(Schema, { DATABASE_URL: "" })).toThrow(
      /^Invalid configuration: DATABASE_URL is required \(it is set but empty\)$/,
    );
  });

  it("never echoes the value (it may hold a password)", () => {
    expect(() => parseConfig(Schema, { DATABASE_URL: "mysql://user:hunter2@x" })).toThrow(/^(?!.*hunter2)/s);
  });
});
