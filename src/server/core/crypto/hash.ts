import { createHash } from "node:crypto";

/** SHA-256 of a UTF-8 text as 64 hex digits: how secrets (tokens, codes, keys) are stored and looked up. */
export const sha256Hex = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");
