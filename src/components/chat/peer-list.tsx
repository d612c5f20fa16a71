"use client";

import { useTranslations } from "next-intl";
import type { TPeerInfo } from "../../../broker/protocol/frames";
import type { MemberPublicKeys } from "../../../broker/protocol/safety-number";
import { statusLabel, type Tr } from "@/components/audit-sentence";
import { SafetyNumber } from "./safety-number";

/** The peers' conversations: the whole mesh first, then each other member with presence and status. */
export function PeerList({
  peers,
  me,
  mine,
  active,
  unread,
  onOpen,
}: {
  peers: readonly TPeerInfo[];
  me: string;
  /** This device's public keys, for the safety numbers. */
  mine: MemberPublicKeys;
  active: string;
  unread: Record<string, number>;
  onOpen: (conversation: string) => void;
}) {
  const t = useTranslations("chat");
  const live = useTranslations("live") as unknown as Tr;
  const others = peers.filter((p) => p.memberId !== me);
  const badge = (conversation: string) =>
    unread[conversation] ? (
      <span className="badge tone-info">{t("unreadBadge", { count: unread[conversation] ?? 0 })}</span>
    ) : null;
  return (
    <div className="card stack-sm chat-peers">
      <h2>{t("people")}</h2>
      <ul className="chat-peer-list">
        <li>
          <button
            type="button"
            className="chat-peer"
            aria-current={active === "mesh" ? "true" : undefined}
            onClick={() => onOpen("mesh")}
          >
            <span className="chat-peer-name">{t("wholeMesh")}</span>
            {badge("mesh")}
          </button>
        </li>
        {others.map((p) => {
          const presence = p.receiving ? "receiving" : p.online ? "sendsOnly" : "offline";
          const tone = p.receiving ? "tone-success" : p.online ? "tone-warning" : "tone-neutral";
          return (
            <li key={p.memberId}>
              <button
                type="button"
                className="chat-peer"
                aria-current={active === p.memberId ? "true" : undefined}
                disabled={!p.boxPubkey}
                onClick={() => onOpen(p.memberId)}
              >
                <span className="chat-peer-name">{p.displayName}</span>
                <span className={`badge ${tone}`}>
                  <span className="badge-dot" aria-hidden="true" />
                  {t(`presence.${presence}`)}
                </span>
                {p.status ? (
                  <span className="muted chat-peer-status">
                    {statusLabel(live, p.status)}
                    {p.statusText ? ` · ${p.statusText}` : ""}
                  </span>
                ) : null}
                {badge(p.memberId)}
              </button>
              <SafetyNumber deviceMemberId={me} mine={mine} peer={p} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
