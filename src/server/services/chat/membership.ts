/**
 * The person's live key-less member of a mesh that is not archived (joined in the browser, or the
 * owner's): who may open the chat and register a browser device there (one rule for both).
 */
export const liveMembershipOf = (meshId: string, userId: string) => ({
  meshId,
  userId,
  peerPubkey: null,
  revokedAt: null,
  mesh: { archivedAt: null },
});
