import type { Db } from "../src/server/core/db";
import type { Actor, PeerActor } from "../src/server/services/actor";
import { serviceContext, type ServiceContext } from "../src/server/services/context";

/**
 * The services' context of one request, connection or frame on the broker: the broker's own database
 * and the process's clock. Settings and the sealer stay the lazy defaults, read only by a service that
 * needs them (none the broker calls does), so building a context never parses the web app's environment.
 */
export function brokerContext<A extends Actor>(db: Db, actor: A): ServiceContext<A> {
  return serviceContext(actor, { db });
}

/** The actor of a connected peer's frames and of the requests it signs (hook, leave). */
export function peerActor(peer: { meshId: string; memberId: string }): PeerActor {
  return { kind: "peer", meshId: peer.meshId, memberId: peer.memberId };
}
