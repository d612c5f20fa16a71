import { z } from "zod";
import { ZDate } from "./common";

// Output schemas of the profile (my.profile, my.updateProfile).

export const ZProfileOut = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  image: z.string().nullable(),
  createdAt: ZDate,
  isAdmin: z.boolean(),
});
export const ZProfileUpdatedOut = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
});
