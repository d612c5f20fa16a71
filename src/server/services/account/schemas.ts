import { z } from "zod";

// What the account settings' inputs share (their schemas sit beside each use case). Error messages are
// keys of the page's messages (account.errors.*).

export const ZPassword = z.string().max(200, { error: "password_too_long" });
