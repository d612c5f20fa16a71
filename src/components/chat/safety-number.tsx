"use client";

import { useTranslations } from "next-intl";
import { useState, useSyncExternalStore } from "react";
import type { TPeerInfo } from "../../../broker/protocol/frames";
import {
  formatSafetyNumber,
  markVerified,
  safetyNumber,
  verificationAmong,
  withMark,
  withoutMark,
  type MemberPublicKeys,
  type VerificationMark,
} from "../../../broker/protocol/safety-number";

// The safety number of this browser's device and a peer (docs/protocol.md, "Safety numbers"): the same
// 60 digits the peer sees in its chat and `mesh verify` prints, and a "verified" mark kept in this
// browser that turns into a warning when the peer's keys change. Marks are public facts (a member id
// and a key fingerprint), kept per device in localStorage; the digits are computed only when asked
// for (5,200 rounds of SHA-512 per side).

const MARKS_EVENT = "mesh-chat-verified";
const marksKey = (deviceMemberId: string) => `mesh-chat-verified:${deviceMemberId}`;

function readMarks(deviceMemberId: string): VerificationMark[] {
  try {
    const value = JSON.parse(localStorage.getItem(marksKey(deviceMemberId)) ?? "[]") as unknown;
    return Array.isArray(value)
      ? value.filter(
          (m): m is VerificationMark =>
            typeof m === "object" &&
            m !== null &&
            typeof (m as VerificationMark).memberId === "string" &&
            typeof (m as VerificationMark).keyFingerprint === "string" &&
            typeof (m as VerificationMark).markedAt === "string",
        )
      : [];
  } catch {
    return [];
  }
}

function writeMarks(deviceMemberId: string, marks: VerificationMark[]): void {
  try {
    localStorage.setItem(marksKey(deviceMemberId), JSON.stringify(marks));
  } catch {
    // A full or disabled storage: the mark lives until the page is left.
  }
  window.dispatchEvent(new CustomEvent(MARKS_EVENT));
}

const subscribe = (onChange: () => void) => {
  window.addEventListener(MARKS_EVENT, onChange);
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(MARKS_EVENT, onChange);
    window.removeEventListener("storage", onChange);
  };
};

/** This device's marks, re-read when another tab or panel changes them. */
function useMarks(deviceMemberId: string): VerificationMark[] {
  const raw = useSyncExternalStore(
    subscribe,
    () => localStorage.getItem(marksKey(deviceMemberId)) ?? "[]",
    () => "[]",
  );
  // Parsed from the stored text, so the same text gives equal marks.
  return raw === "[]" ? [] : readMarks(deviceMemberId);
}

/** A peer's verification badge and its safety number, under the peer's conversation in the chat. */
export function SafetyNumber({
  deviceMemberId,
  mine,
  peer,
}: {
  deviceMemberId: string;
  mine: MemberPublicKeys;
  peer: TPeerInfo;
}) {
  const t = useTranslations("chat.safety");
  const marks = useMarks(deviceMemberId);
  const [digits, setDigits] = useState<string | null>(null);
  const state = verificationAmong(marks, peer);
  const keys = peer.peerPubkey ? { peerPubkey: peer.peerPubkey, boxPubkey: peer.boxPubkey } : null;
  return (
    <div className="chat-peer-safety stack-sm" data-safety-number-for={peer.memberId}>
      {state === "verified" ? (
        <span className="badge tone-success">
          <span className="badge-dot" aria-hidden="true" />
          {t("verified")}
        </span>
      ) : null}
      {state === "changed" ? (
        <p className="alert" role="alert">
          {t("changed", { name: peer.displayName })}
        </p>
      ) : null}
      {keys ? (
        <details
          onToggle={(e) => {
            if ((e.currentTarget as HTMLDetailsElement).open && digits === null) setDigits(safetyNumber(mine, keys));
          }}
        >
          <summary>{t("show")}</summary>
          {digits ? (
            <div className="stack-sm">
              <p className="muted small">{t("explain", { name: peer.displayName })}</p>
              <pre className="safety-digits" data-testid="safety-digits">
                {formatSafetyNumber(digits)}
              </pre>
              {state === "verified" ? (
                <button
                  type="button"
                  className="button secondary small"
                  onClick={() => writeMarks(deviceMemberId, withoutMark(marks, peer.memberId))}
                >
                  {t("unmark")}
                </button>
              ) : (
                <button
                  type="button"
                  className="button secondary small"
                  onClick={() => writeMarks(deviceMemberId, withMark(marks, markVerified(peer.memberId, keys)))}
                >
                  {t("mark")}
                </button>
              )}
            </div>
          ) : null}
        </details>
      ) : null}
    </div>
  );
}
