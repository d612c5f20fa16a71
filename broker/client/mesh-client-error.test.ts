import { describe, expect, it } from "vitest";
import { AccountError } from "./account";
import { HookError } from "./hook";
import { JoinRefusedError } from "./join";
import { JoinLinkError } from "./join-link";
import { MeshClientError } from "./mesh-client-error";
import { PostError } from "./post-json";

describe("the client's one error class", () => {
  it("is the class of every client error, each with a code and whether trying again can help", () => {
    const cases: [MeshClientError, string, boolean][] = [
      [new JoinRefusedError("invite_expired", "gone", 410), "invite_expired", false],
      [new JoinRefusedError("TOO_MANY_REQUESTS", "later", 429, 3), "TOO_MANY_REQUESTS", true],
      [new JoinRefusedError("UNREACHABLE", "no answer"), "UNREACHABLE", true],
      [new JoinRefusedError("HTTP_502", "proxy", 502), "HTTP_502", true],
      [new HookError("UNAUTHORIZED", "no", 401), "UNAUTHORIZED", false],
      [new HookError("BAD_ANSWER", "odd", 200), "BAD_ANSWER", false],
      [new AccountError("EXPIRED", "too late"), "EXPIRED", false],
      [new JoinLinkError("link_malformed", "bad link"), "link_malformed", false],
      [new PostError("ECONNREFUSED", "ECONNREFUSED"), "ECONNREFUSED", true],
      [new MeshClientError("CLOSED", "the client was closed"), "CLOSED", false],
    ];
    for (const [error, code, retryable] of cases) {
      expect(error).toBeInstanceOf(MeshClientError);
      expect([error.code, error.retryable], code).toEqual([code, retryable]);
    }
    expect(new JoinRefusedError("TOO_MANY_REQUESTS", "later", 429, 3)).toMatchObject({
      name: "JoinRefusedError",
      status: 429,
      retryAfterSeconds: 3,
    });
  });
});
