"use client";

import { useTranslations } from "next-intl";
import { humanize, KeyValues } from "@/components/key-values";
import { LocalTime } from "@/components/local-time";

/** Codes the engine stores as a job's message that have a sentence of their own. */
const MESSAGE_CODES = ["cancelled_by_client", "internal_error", "scraper_unavailable"] as const;
const isMessageCode = (m: string): m is (typeof MESSAGE_CODES)[number] =>
  (MESSAGE_CODES as readonly string[]).includes(m);

/**
 * A job's error as people read it: the translated sentence of its class, the stored message translated
 * when it is one of the engine's codes, else kept as the scraper's technical detail (in English, as the
 * API returns it) in monospace. Never "Timeout:" with nothing after it.
 */
export function JobError({ errorClass, message }: { errorClass: string; message: string | null }) {
  const t = useTranslations("engine");
  const sentence = t(`errorSentence.${errorClass as "internal"}`);
  if (!message || message === errorClass) return <>{sentence}</>;
  if (isMessageCode(message)) return <>{t(`messageCode.${message}`)}</>;
  return (
    <>
      {sentence} <code className="muted small">{message}</code>
    </>
  );
}

type Detail = Record<string, unknown>;

/** A timeline event's details as label and value pairs, each label and code translated. */
export function EventDetail({ detail }: { detail: Detail }) {
  const t = useTranslations("engine");
  const rows: [string, React.ReactNode][] = [];
  for (const [key, value] of Object.entries(detail)) {
    if (value === null || value === undefined || value === false) continue;
    switch (key) {
      case "attempt":
        rows.push([t("eventDetail.attempt"), String(value)]);
        break;
      case "review_count":
        rows.push([t("eventDetail.reviews"), String(value)]);
        break;
      case "error_class":
        rows.push([t("eventDetail.error"), t(`errorClass.${String(value) as "internal"}`)]);
        break;
      case "message":
        rows.push([
          t("eventDetail.message"),
          isMessageCode(String(value)) ? (
            t(`messageCode.${String(value) as "internal_error"}`)
          ) : (
            <code key="m">{String(value)}</code>
          ),
        ]);
        break;
      case "reason":
        rows.push([
          t("eventDetail.reason"),
          isMessageCode(String(value)) ? t(`messageCode.${String(value) as "internal_error"}`) : String(value),
        ]);
        break;
      case "run_after":
        rows.push([t("eventDetail.runAfter"), <LocalTime key="r" iso={String(value)} />]);
        break;
      case "after":
        rows.push([t("eventDetail.after"), t(`jobStatus.${String(value) as "queued"}`)]);
        break;
      case "retry":
        rows.push([t("eventDetail.retry"), t("eventDetail.yes")]);
        break;
      case "recovered":
        rows.push([t("eventDetail.recovered"), t("eventDetail.yes")]);
        break;
      case "cancel_requested":
        rows.push([t("eventDetail.cancelRequested"), t("eventDetail.yes")]);
        break;
      default:
        // A detail this page does not know yet: its value, under a neutral label.
        rows.push([
          humanize(key),
          typeof value === "object" ? <KeyValues key={key} value={value as Record<string, unknown>} /> : String(value),
        ]);
    }
  }
  if (rows.length === 0) return null;
  return (
    <dl className="kv">
      {rows.map(([label, value], i) => (
        <div key={i} style={{ display: "contents" }}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const CALLBACK_ERRORS = ["destination_refused", "timeout", "network", "no_signing_secret"] as const;

/** A callback attempt's error ("timeout", "destination_refused:private") as a sentence. */
export function CallbackError({ error }: { error: string | null }) {
  const t = useTranslations("engine");
  if (!error) return null;
  const [code, detail] = error.split(/:(.*)/s, 2) as [string, string | undefined];
  if (!(CALLBACK_ERRORS as readonly string[]).includes(code)) return <code>{error}</code>;
  return (
    <>
      {t(`callbackError.${code as "timeout"}`)}
      {detail ? <code className="muted small"> {detail}</code> : null}
    </>
  );
}

/** "job.completed" → its translated name. */
export function CallbackKind({ kind }: { kind: string }) {
  const t = useTranslations("engine");
  const key = kind.replace(".", "_");
  return (
    <>
      {["job_completed", "job_failed", "job_cancelled", "batch_completed"].includes(key)
        ? t(`callbackKind.${key as "job_completed"}`)
        : kind}
    </>
  );
}
