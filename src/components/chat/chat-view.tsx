"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import nacl from "tweetnacl";
import type { TPeerInfo } from "../../../broker/protocol/frames";
import { ChatClient, type ChatEnd, type ChatMessage, type DeviceSecrets } from "@/chat/chat-client";
import {
  addMessage,
  forgetDevice,
  loadDevice,
  loadEpochKeys,
  loadPage,
  nextArrival,
  readUnread,
  saveDevice,
  saveEpochKeys,
  writeUnread,
  type StoredMessage,
} from "@/chat/browser-store";
import { signDeviceProof } from "@/server/core/crypto/device-proof";
import { toBase64Url } from "@/server/core/encoding";
import { LocalTime } from "@/components/local-time";
import { Link } from "@/i18n/navigation";
import { accessLostReason, retryUnlessAccessLost } from "@/trpc/access-lost";
import { useTRPC, useTRPCClient } from "@/trpc/react";
import { Composer } from "./composer";
import { KeyBackupPanel } from "./key-backup-panel";
import { handleOf, splitMentions } from "./mentions";
import { PeerList } from "./peer-list";
import { RestorePanel } from "./restore-panel";

/** Messages shown per page of a conversation ("Show earlier messages" loads the next page from IndexedDB). */
const PAGE = 100;

type Context = NonNullable<ReturnType<typeof useChatContext>["data"]>;
const useChatContext = (meshId: string) => {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.my.chatContext.queryOptions({ meshId }),
    retry: retryUnlessAccessLost,
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
};

/** One registration per person and mesh in this tab, whatever React runs twice. */
const registering = new Map<string, Promise<DeviceSecrets>>();

/**
 * The chat of a mesh (issue 45): this browser's device keys (made here, kept in IndexedDB, registered with
 * their public halves), a live connection to the broker, the conversations with their history on this
 * device, and the key backup. A person removed from the mesh sees the chat close at once.
 */
export function ChatView({ meshId }: { meshId: string }) {
  const t = useTranslations("chat");
  const tl = useTranslations("truth.accessLost");
  const client = useTRPCClient();
  const context = useChatContext(meshId);
  const [device, setDevice] = useState<DeviceSecrets | null>(null);
  const [setup, setSetup] = useState<"working" | "restore" | "failed" | "noStorage" | "ready">("working");
  const [skipRestore, setSkipRestore] = useState(false);
  const ctx = context.data;

  useEffect(() => {
    if (!ctx) return;
    let cancelled = false;
    const done = (d: DeviceSecrets) => {
      if (cancelled) return;
      setDevice(d);
      setSetup("ready");
    };
    void (async () => {
      if (typeof indexedDB === "undefined") return setSetup("noStorage");
      const local = await loadDevice(ctx.membershipId);
      if (local && ctx.devices.some((d) => d.memberId === local.memberId)) return done(local);
      // A device of this browser that ended (removed, left) is of no use: its keys go.
      if (local) await forgetDevice(ctx.membershipId);
      if (!skipRestore && ctx.devices.some((d) => d.backedUpAt)) return cancelled ? undefined : setSetup("restore");
      let made = registering.get(ctx.membershipId);
      if (!made) {
        made = registerNewDevice(ctx, client);
        registering.set(ctx.membershipId, made);
      }
      done(await made);
    })().catch(() => {
      registering.delete(ctx.membershipId);
      if (!cancelled) setSetup("failed");
    });
    return () => {
      cancelled = true;
    };
  }, [ctx, client, skipRestore]);

  const lost = accessLostReason(context.error);
  if (lost) {
    return (
      <div className="alert stack-sm" role="alert">
        <h2>{tl(lost === "signedOut" ? "signedOutTitle" : "title")}</h2>
        <p>
          {lost === "removed" && isNoMembership(context.error)
            ? t("setup.noMembership")
            : tl(lost === "signedOut" ? "signedOutBody" : "body")}
        </p>
        <p>
          <Link href="/dashboard">{tl("back")}</Link>
        </p>
      </div>
    );
  }
  if (!ctx || setup === "working") {
    return (
      <p className="muted" role="status">
        {context.isError ? t("setup.failed") : t("setup.preparing")}
      </p>
    );
  }
  if (setup === "noStorage" || setup === "failed") {
    return (
      <p className="alert" role="alert">
        {t(setup === "noStorage" ? "setup.noStorage" : "setup.failed")}
      </p>
    );
  }
  if (setup === "restore" || !device) {
    return (
      <RestorePanel
        meshId={meshId}
        backups={ctx.devices.flatMap((d) => (d.backedUpAt ? [{ ...d, backedUpAt: d.backedUpAt }] : []))}
        onRestored={(d) => {
          void saveDevice(ctx.membershipId, meshId, d).then(() => {
            setDevice(d);
            setSetup("ready");
          });
        }}
        onSkip={() => {
          setSetup("working");
          setSkipRestore(true);
        }}
      />
    );
  }
  return <ChatSession key={device.memberId} ctx={ctx} device={device} />;
}

function isNoMembership(error: unknown): boolean {
  return error instanceof Error && error.message === "browser_membership_required";
}

async function registerNewDevice(ctx: Context, client: ReturnType<typeof useTRPCClient>): Promise<DeviceSecrets> {
  const sign = nacl.sign.keyPair();
  const box = nacl.box.keyPair();
  const peerPubkey = toBase64Url(sign.publicKey);
  const boxPubkey = toBase64Url(box.publicKey);
  const proof = signDeviceProof({
    userId: ctx.userId,
    meshId: ctx.meshId,
    peerPubkey,
    boxPubkey,
    secretKey: sign.secretKey,
  });
  // The secret halves are kept before the public ones are registered: a reload in between finds them.
  const made = await client.my.registerBrowserDevice.mutate({ meshId: ctx.meshId, peerPubkey, boxPubkey, proof });
  const device = { memberId: made.memberId, signSecretKey: sign.secretKey, boxSecretKey: box.secretKey };
  await saveDevice(ctx.membershipId, ctx.meshId, device);
  return device;
}

const END_REASONS = new Set(["removed", "left", "mesh_archived", "mesh_deleted"]);

function ChatSession({ ctx, device }: { ctx: Context; device: DeviceSecrets }) {
  const t = useTranslations("chat");
  const owner = ctx.membershipId;
  const meshId = ctx.meshId;
  const [peers, setPeers] = useState<TPeerInfo[]>([]);
  const [active, setActive] = useState("mesh");
  const [messages, setMessages] = useState<StoredMessage[]>([]);
  const [hasEarlier, setHasEarlier] = useState(false);
  // Rendered in the browser only (after the device is set up), so the counts can be read at once.
  const [unread, setUnread] = useState<Record<string, number>>(() => readUnread(meshId));
  const [connection, setConnection] = useState<"connecting" | "open" | "reconnecting">("connecting");
  const [ended, setEnded] = useState<ChatEnd | null>(null);
  const chat = useRef<ChatClient | null>(null);
  const activeRef = useRef(active);
  const peersRef = useRef(peers);
  const log = useRef<HTMLOListElement>(null);
  const stickToBottom = useRef(true);

  useEffect(() => {
    peersRef.current = peers;
  }, [peers]);

  const bumpUnread = useCallback(
    (conversation: string, by: number | null) => {
      const counts = readUnread(meshId);
      if (by === null) delete counts[conversation];
      else counts[conversation] = (counts[conversation] ?? 0) + by;
      writeUnread(meshId, counts);
      setUnread(counts);
    },
    [meshId],
  );

  // The conversation shown: its newest page from this device's history; its unread count goes.
  useEffect(() => {
    activeRef.current = active;
    stickToBottom.current = true;
    let cancelled = false;
    void loadPage(owner, active, PAGE).then((page) => {
      if (cancelled) return;
      setMessages(page);
      setHasEarlier(page.length === PAGE);
      if (document.visibilityState === "visible") bumpUnread(active, null);
    });
    return () => {
      cancelled = true;
    };
  }, [owner, active, bumpUnread]);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === "visible") bumpUnread(activeRef.current, null);
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [meshId, bumpUnread]);

  const keep = useCallback(
    async (m: ChatMessage, mine: boolean, conversation: string) => {
      const stored: StoredMessage = {
        owner,
        messageId: m.messageId,
        n: nextArrival(),
        conversation,
        from: m.from,
        fromName: mine ? "" : (peersRef.current.find((p) => p.memberId === m.from)?.displayName ?? ""),
        text: m.text,
        sentAt: m.sentAt,
        createdAt: m.createdAt,
        direct: m.direct,
        mine,
      };
      await addMessage(stored).catch(() => {});
      if (conversation === activeRef.current)
        setMessages((ms) => (ms.some((x) => x.messageId === stored.messageId) ? ms : [...ms, stored]));
      if (!mine && (conversation !== activeRef.current || document.visibilityState !== "visible"))
        bumpUnread(conversation, 1);
    },
    [owner, bumpUnread],
  );

  useEffect(() => {
    let client: ChatClient | null = null;
    let stopped = false;
    void loadEpochKeys(owner).then((held) => {
      if (stopped) return;
      let keys = held;
      client = new ChatClient({
        brokerUrl: ctx.brokerUrl,
        meshId,
        rootKey: ctx.rootKey,
        device,
        epochKeys: {
          load: () => keys,
          save: (next) => {
            keys = [...next];
            void saveEpochKeys(owner, next);
          },
        },
        onMessage: (m) => void keep(m, false, m.direct ? m.from : "mesh"),
        onPeers: setPeers,
        onState: setConnection,
        onStatus: (s) =>
          setPeers((ps) =>
            ps.map((p) => (p.memberId === s.memberId ? { ...p, status: s.status, statusText: s.text } : p)),
          ),
        onEnd: (end) => {
          setEnded(end);
          // The device ended with the person: its keys are of no use, its history stays readable here.
          void forgetDevice(owner);
        },
      });
      chat.current = client;
      client.start();
    });
    return () => {
      stopped = true;
      client?.stop();
      chat.current = null;
    };
  }, [owner, meshId, ctx.brokerUrl, ctx.rootKey, device, keep]);

  useLayoutEffect(() => {
    const el = log.current?.parentElement;
    if (el && stickToBottom.current) el.scrollTop = el.scrollHeight;
  }, [messages]);

  const send = async (text: string) => {
    const client = chat.current;
    if (!client) return false;
    try {
      const to = active === "mesh" ? [] : [active];
      const sent = await client.sendText(text, to);
      stickToBottom.current = true;
      await keep(sent.message, true, active);
      return true;
    } catch {
      return false;
    }
  };

  const earlier = async () => {
    const first = messages[0];
    if (!first) return;
    stickToBottom.current = false;
    const page = await loadPage(owner, active, PAGE, first.n);
    setMessages((ms) => [...page, ...ms]);
    setHasEarlier(page.length === PAGE);
  };

  const me = peers.find((p) => p.memberId === device.memberId);
  // This device's public keys as this browser holds them (not as the broker lists them): the safety numbers' own side.
  const mineKeys = useMemo(
    () => ({
      peerPubkey: toBase64Url(device.signSecretKey.subarray(32)),
      boxPubkey: toBase64Url(nacl.box.keyPair.fromSecretKey(device.boxSecretKey).publicKey),
    }),
    [device],
  );
  const known = useMemo(
    () => new Set([...peers.map((p) => handleOf(p.displayName).toLowerCase()), ...peers.flatMap((p) => p.groups)]),
    [peers],
  );
  const mine = useMemo(() => new Set([...(me ? [handleOf(me.displayName).toLowerCase(), ...me.groups] : [])]), [me]);
  const groups = useMemo(() => [...new Set(peers.flatMap((p) => p.groups))].sort(), [peers]);
  const activePeer = peers.find((p) => p.memberId === active);
  const title =
    active === "mesh" ? t("wholeMesh") : t("conversationWith", { name: activePeer?.displayName ?? t("someone") });
  const nameOf = (m: StoredMessage) =>
    m.mine ? t("you") : (peers.find((p) => p.memberId === m.from)?.displayName ?? (m.fromName || t("someone")));

  return (
    <div className="stack">
      {ended ? (
        <div className="alert stack-sm" role="alert">
          <p>{t(`ended.${END_REASONS.has(ended.reason) ? ended.reason : "other"}`)}</p>
          <p>
            <Link href="/dashboard">{t("ended.back")}</Link>
          </p>
        </div>
      ) : (
        <p className="muted" role="status">
          {t(`state.${connection}`)}
        </p>
      )}
      <div className="chat-layout">
        <PeerList
          peers={peers.filter((p) => p.boxPubkey)}
          me={device.memberId}
          mine={mineKeys}
          active={active}
          unread={unread}
          onOpen={setActive}
        />
        <div className="card stack-sm chat-main">
          <h2>{title}</h2>
          <div
            className="chat-log"
            onScroll={(e) => {
              const el = e.currentTarget;
              stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
            }}
          >
            {hasEarlier ? (
              <button type="button" className="button secondary small" onClick={() => void earlier()}>
                {t("earlier")}
              </button>
            ) : null}
            {messages.length === 0 ? <p className="muted">{t("noMessages")}</p> : null}
            <ol ref={log} className="chat-messages" aria-label={title}>
              {messages.map((m) => {
                const mentionsMe = !m.mine && splitMentions(m.text, mine).some((p) => p.mention);
                return (
                  <li
                    key={m.messageId}
                    className={`chat-message${m.mine ? " mine" : ""}${mentionsMe ? " mentions-me" : ""}`}
                  >
                    <p className="chat-meta">
                      <strong>{nameOf(m)}</strong> <LocalTime iso={m.createdAt} />
                      {mentionsMe ? <span className="badge tone-info">{t("mentionsYou")}</span> : null}
                    </p>
                    <p className="chat-text">
                      {splitMentions(m.text, known).map((part, i) =>
                        part.mention ? (
                          <mark key={i} className="mention">
                            {part.text}
                          </mark>
                        ) : (
                          <span key={i}>{part.text}</span>
                        ),
                      )}
                    </p>
                  </li>
                );
              })}
            </ol>
          </div>
          {ended ? null : (
            <Composer
              people={peers.filter((p) => p.memberId !== device.memberId).map((p) => p.displayName)}
              groups={groups}
              disabled={connection !== "open"}
              onSend={send}
            />
          )}
        </div>
      </div>
      {ended ? null : (
        <KeyBackupPanel
          meshId={meshId}
          device={device}
          lastBackup={ctx.devices.find((d) => d.memberId === device.memberId)?.backedUpAt ?? null}
        />
      )}
    </div>
  );
}
