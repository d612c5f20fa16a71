// Field sets several use cases read, kept in one place so the answers stay alike.

/** The public fields of a mesh (never its sealed keys). */
export const meshSummarySelect = {
  id: true,
  slug: true,
  name: true,
  visibility: true,
  transport: true,
  tier: true,
  archivedAt: true,
  createdAt: true,
} as const;

/** The fields of an invite that lists show (never its token). */
export const inviteSummarySelect = {
  id: true,
  role: true,
  expiresAt: true,
  maxUses: true,
  usedCount: true,
  revokedAt: true,
  createdAt: true,
} as const;
