import { describe, expect, it } from "vitest";
import { oauthProviders } from "./providers";

const ids = (env: Record<string, string>) => oauthProviders(env).map((p) => (typeof p === "function" ? p() : p).id);

describe("oauthProviders", () => {
  it("switches each provider on only when all its variables are set", () => {
    expect(ids({})).toEqual([]);
    expect(ids({ AUTH_GITHUB_ID: "id" })).toEqual([]);
    expect(ids({ AUTH_GITHUB_ID: "id", AUTH_GITHUB_SECRET: "s" })).toEqual(["github"]);
    expect(
      ids({
        AUTH_GOOGLE_ID: "g",
        AUTH_GOOGLE_SECRET: "s",
        AUTH_OIDC_ISSUER: "https://id.example.com",
        AUTH_OIDC_ID: "o",
        AUTH_OIDC_SECRET: "s",
      }),
    ).toEqual(["google", "oidc"]);
  });
});
