import { z } from "zod";

/** E-mail as typed by a person: trimmed and lower-cased before use. */
export const ZEmail = z
  .email({ error: "invalid_email" })
  .max(254)
  .transform((v) => v.trim().toLowerCase());
