import { describe, expect, it } from "vitest";
import { authSubprotocols, proofFromSubprotocols, WS_SUBPROTOCOL } from "./ws-subprotocol";

describe("the connection proof as a subprotocol", () => {
  const proof = "v1.1764680000000.AAAAAAAAAAAAAAAAAAAAAA.sig";

  it("is read back from what a browser offers, mesh.v1 first", () => {
    const offered = authSubprotocols(proof);
    expect(offered[0]).toBe(WS_SUBPROTOCOL);
    expect(proofFromSubprotocols(offered.join(", "))).toBe(proof);
    expect(proofFromSubprotocols(`mesh-auth.${proof},mesh.v1`)).toBe(proof);
  });

  it("is not taken without mesh.v1, twice, or from an oversized header", () => {
    expect(proofFromSubprotocols(undefined)).toBeUndefined();
    expect(proofFromSubprotocols(`mesh-auth.${proof}`)).toBeUndefined();
    expect(proofFromSubprotocols(`mesh.v1, mesh-auth.${proof}, mesh-auth.${proof}`)).toBeUndefined();
    expect(proofFromSubprotocols(`mesh.v1, mesh-auth.${"x".repeat(400)}`)).toBeUndefined();
    expect(proofFromSubprotocols("mesh.v1, chat")).toBeUndefined();
  });
});
