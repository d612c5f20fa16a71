"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useFormatter, useTranslations } from "next-intl";
import { useId, useState } from "react";
import { ButtonPager } from "@/components/ui/button-pager";
import { SelectField } from "@/components/ui/select-field";
import { ListState } from "@/components/ui/states";
import { StatusBadge, Tag } from "@/components/ui/status-badge";
import {
  REPLY_DRAFT_STATES,
  REPLY_TEXT_MAX,
  type TReplyDraftPageOut,
} from "@/server/services/pipelines/reply-drafts.schema";
import { useTRPC } from "@/trpc/react";

const PAGE_SIZE = 10;
type Draft = TReplyDraftPageOut["items"][number];
type State = (typeof REPLY_DRAFT_STATES)[number];

/** The reply drafts of one run: a filter by state, one card per review with its editable draft, and pages. */
export function ReplyDrafts({ pipelineId, executionId }: { pipelineId: string; executionId: string }) {
  const t = useTranslations("pipelines.replies");
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const [state, setState] = useState<State | "">("");
  const input = {
    pipeline_id: pipelineId,
    execution_id: executionId,
    page,
    pageSize: PAGE_SIZE,
    ...(state ? { state } : {}),
  };
  const query = useQuery(trpc.pipelines.replies.queryOptions(input));
  const pages = query.data ? Math.max(1, Math.ceil(query.data.total / PAGE_SIZE)) : 1;
  const counts = query.data?.counts;
  return (
    <div className="stack">
      {counts ? (
        <p className="muted" data-testid="reply-counts">
          {t("counts", { draft: counts.draft, approved: counts.approved, discarded: counts.discarded })}
        </p>
      ) : null}
      <div className="row">
        <SelectField
          inline
          label={t("filter")}
          value={state}
          options={REPLY_DRAFT_STATES}
          optionLabel={(s) => t(`states.${s}`)}
          onChange={(s) => (setState(s), setPage(1))}
          allLabel={t("all")}
        />
      </div>
      {query.isPending || query.isError || query.data.items.length === 0 ? (
        <ListState
          loading={query.isPending}
          error={query.isError}
          empty
          labels={{ loading: t("loading"), error: t("loadFailed"), empty: state ? t("emptyState") : t("empty") }}
          emptyText={state ? null : t("emptyText")}
        />
      ) : (
        <ol className="stack reply-list">
          {query.data.items.map((d) => (
            <li key={`${d.id}-${d.updated_at}`}>
              <DraftCard draft={d} pipelineId={pipelineId} executionId={executionId} />
            </li>
          ))}
        </ol>
      )}
      <ButtonPager
        page={page}
        pages={pages}
        onPage={setPage}
        label={t("pages")}
        summary={query.data ? t("summary", { total: query.data.total }) : undefined}
      />
    </div>
  );
}

/** One review and its draft: the text editable while it is a draft, then approve, discard, copy or reopen. */
function DraftCard({ draft, pipelineId, executionId }: { draft: Draft; pipelineId: string; executionId: string }) {
  const t = useTranslations("pipelines.replies");
  const tl = useTranslations("pipelines.labels");
  const format = useFormatter();
  const trpc = useTRPC();
  const client = useQueryClient();
  const id = useId();
  const [text, setText] = useState(draft.text);
  const [copied, setCopied] = useState(false);
  const refresh = { onSuccess: () => client.invalidateQueries({ queryKey: trpc.pipelines.replies.pathKey() }) };
  const edit = useMutation(trpc.pipelines.editReply.mutationOptions(refresh));
  const approve = useMutation(trpc.pipelines.approveReply.mutationOptions(refresh));
  const discard = useMutation(trpc.pipelines.discardReply.mutationOptions(refresh));
  const reopen = useMutation(trpc.pipelines.reopenReply.mutationOptions(refresh));
  const ids = { pipeline_id: pipelineId, execution_id: executionId, draft_id: draft.id };
  const busy = edit.isPending || approve.isPending || discard.isPending || reopen.isPending;
  const failed = edit.error ?? approve.error ?? discard.error ?? reopen.error;
  const editable = draft.state === "draft";
  const trimmed = text.trim();
  const L = (k: string) => (tl.has(k) ? tl(k) : k);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(editable ? text : draft.text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <article
      className="card stack-sm"
      data-testid="reply-draft"
      data-draft-id={draft.id}
      data-state={draft.state}
      aria-labelledby={`${id}-title`}
    >
      <div className="row">
        <h3 id={`${id}-title`}>{draft.review.author ?? t("anonymous")}</h3>
        <StatusBadge status={draft.state} testId="reply-state" />
        {draft.critical ? <Tag tone="danger">{t("critical")}</Tag> : null}
      </div>
      <p className="muted small">
        {[
          draft.rating !== null ? t("stars", { stars: draft.rating }) : null,
          draft.review.published_at
            ? format.dateTime(new Date(draft.review.published_at), { dateStyle: "medium" })
            : null,
          draft.negative.length ? t("complaints", { category: draft.negative.map(L).join(", ") }) : null,
        ]
          .filter(Boolean)
          .join(" · ")}
      </p>
      {draft.review.text ? (
        <blockquote className="reply-review">{draft.review.text}</blockquote>
      ) : (
        <p className="muted small">{draft.review.stored ? t("noText") : t("notStored")}</p>
      )}
      {draft.fallback_from ? (
        <p className="notice small" data-testid="reply-fallback">
          {t("fallback", { language: draft.fallback_from })}
        </p>
      ) : null}
      <label className="field" htmlFor={`${id}-text`}>
        <span>{t("draftLabel", { language: L(draft.language) })}</span>
      </label>
      <textarea
        id={`${id}-text`}
        rows={8}
        maxLength={REPLY_TEXT_MAX}
        value={editable ? text : draft.text}
        readOnly={!editable}
        onChange={(e) => setText(e.target.value)}
        data-testid="reply-text"
      />
      <p className="muted small">
        {draft.source === "llm" ? t("sourceLlm") : t("sourceTemplate")}
        {draft.edited ? ` · ${t("edited")}` : ""}
        {draft.changed_by
          ? ` · ${t("changed", { when: format.dateTime(new Date(draft.updated_at), { dateStyle: "medium", timeStyle: "short" }) })}`
          : ""}
      </p>
      <div className="row">
        {editable ? (
          <>
            <button
              type="button"
              className="button small"
              disabled={busy || !trimmed}
              onClick={() => approve.mutate({ ...ids, ...(text !== draft.text ? { text } : {}) })}
            >
              {t("approve")}
            </button>
            <button
              type="button"
              className="button secondary small"
              disabled={busy || !trimmed || text === draft.text}
              onClick={() => edit.mutate({ ...ids, text })}
            >
              {t("save")}
            </button>
          </>
        ) : (
          <button type="button" className="button secondary small" disabled={busy} onClick={() => reopen.mutate(ids)}>
            {t("reopen")}
          </button>
        )}
        <button type="button" className="button secondary small" onClick={() => void copy()}>
          {t("copy")}
        </button>
        {editable ? (
          <button
            type="button"
            className="button danger secondary small"
            disabled={busy}
            onClick={() => discard.mutate(ids)}
          >
            {t("discard")}
          </button>
        ) : null}
      </div>
      <p className="small" role="status" aria-live="polite">
        {copied ? t("copied") : ""}
      </p>
      {failed ? (
        <p className="alert" role="alert">
          {failed.message === "reply_draft_state" ? t("stateChanged") : t("actionFailed")}
        </p>
      ) : null}
    </article>
  );
}
