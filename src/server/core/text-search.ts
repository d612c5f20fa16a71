// Substring search in Prisma filters. `contains` becomes LIKE '%q%' with `q` as it is, so a search for
// "50%" would match "500" and "a_b" would match "axb": every search box of the product goes through here.

/** `q` as literal text inside a LIKE pattern (PostgreSQL's default escape character is the backslash). */
export const likeLiteral = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Rows whose field contains `q`, letter case aside. */
export const containsText = (q: string) => ({ contains: likeLiteral(q), mode: "insensitive" as const });

/** Rows whose field (stored in lower case: slugs) contains `q` in lower case. */
export const containsLower = (q: string) => ({ contains: likeLiteral(q.toLowerCase()) });
