import type { SystemActor } from "../../src/server/services/actor";
import type { ServiceContext } from "../../src/server/services/context";
import { listLiveMembers, type LiveMember } from "../../src/server/services/broker/peer-connection";

/**
 * The live members of each mesh this node serves, read at most once per `ttlMs` per mesh, so the send
 * path needs no query to resolve recipients. A name that is not in the cached list forces one fresh
 * read (a member who has just joined), so only revocations wait up to `ttlMs` to take effect.
 */
export class MemberCache {
  private readonly meshes = new Map<
    string,
    { loadedAt: number; members: Map<string, LiveMember>; loading?: Promise<Map<string, LiveMember>> }
  >();

  constructor(
    /** The node's own context: the cache serves every peer of the node. */
    private readonly ctx: ServiceContext<SystemActor>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Live members of a mesh; `fresh` skips the cache. */
  async get(meshId: string, fresh = false): Promise<Map<string, LiveMember>> {
    const entry = this.meshes.get(meshId);
    if (entry && !fresh && this.now() - entry.loadedAt < this.ttlMs) return entry.members;
    if (entry?.loading) return entry.loading;
    const loading = listLiveMembers(this.ctx, { meshId }).then((list) => {
      const members = new Map(list.map((m) => [m.memberId, m]));
      this.meshes.set(meshId, { loadedAt: this.now(), members });
      return members;
    });
    this.meshes.set(meshId, { loadedAt: entry?.loadedAt ?? 0, members: entry?.members ?? new Map(), loading });
    try {
      return await loading;
    } catch (error) {
      if (entry) this.meshes.set(meshId, entry);
      else this.meshes.delete(meshId);
      throw error;
    }
  }

  /** Live members, re-read once when any of `ids` is unknown. */
  async resolve(meshId: string, ids: readonly string[]): Promise<Map<string, LiveMember>> {
    const members = await this.get(meshId);
    if (ids.every((id) => members.has(id))) return members;
    return this.get(meshId, true);
  }

  /** Forgets a mesh (after a change this node made, such as a join). */
  invalidate(meshId: string): void {
    this.meshes.delete(meshId);
  }

  /** Drops meshes nobody on this node has used for a while. */
  prune(keep: (meshId: string) => boolean): void {
    for (const meshId of this.meshes.keys()) if (!keep(meshId)) this.meshes.delete(meshId);
  }
}
