"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { ConfirmBox } from "@/components/confirm-box";
import { LocalTime } from "@/components/local-time";
import { EmptyState } from "@/components/ui/states";
import { ScrollRegion } from "@/components/widgets/scroll-region";
import { StatusBadge, Tag } from "@/components/ui/status-badge";
import { useFormats } from "@/i18n/use-formats";
import type { TAlertRuleOut } from "@/server/services/alerts/alert-rules.schema";
import { pollUnlessAccessLost } from "@/trpc/access-lost";
import { useTRPC } from "@/trpc/react";
import { QueryState } from "../progress";
import { AlertRuleForm } from "./alert-rule-form";

/** Rules are polled slower than jobs: alerts come after a run ends. */
const ALERTS_POLL_MS = 5_000;

type Subject = { schedule_id: string } | { place_id: string };

/**
 * The alert rules of a schedule or a place (docs/review-engine.md, "Alerts"): each rule with what it
 * watches, where it sends, on/off and delete (confirmed), and its newest alerts with each delivery's
 * state; "Add an alert rule" opens the form.
 */
export function AlertRulesPanel({ subject }: { subject: Subject }) {
  const t = useTranslations("alerts");
  const trpc = useTRPC();
  const [adding, setAdding] = useState(false);
  const query = useQuery({
    ...trpc.scrape.alerts.list.queryOptions(subject),
    refetchInterval: pollUnlessAccessLost(ALERTS_POLL_MS),
  });
  const rules = query.data;
  return (
    <section className="card stack-sm" aria-labelledby="alerts-title" data-testid="alert-rules">
      <div className="row-between">
        <h2 id="alerts-title">{t("title")}</h2>
        {adding ? null : (
          <button type="button" className="button secondary small" onClick={() => setAdding(true)}>
            {t("add")}
          </button>
        )}
      </div>
      <p className="muted small">{t("lead")}</p>
      {adding ? <AlertRuleForm subject={subject} onDone={() => setAdding(false)} /> : null}
      {!rules ? (
        <QueryState loading={query.isPending} error={query.isError} empty={false} />
      ) : rules.length === 0 ? (
        adding ? null : (
          <EmptyState title={t("emptyTitle")}>{t("emptyText")}</EmptyState>
        )
      ) : (
        <ul className="stack-sm plain-list">
          {rules.map((r) => (
            <li key={r.id}>
              <RuleCard rule={r} subject={subject} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** What a rule watches, in words. */
export function useRuleSummary() {
  const t = useTranslations("alerts");
  const tc = useTranslations("pipelines.labels");
  return (r: Pick<TAlertRuleOut, "kind" | "threshold" | "category">) =>
    r.kind === "low_rating"
      ? t("summary.low_rating", { stars: r.threshold ?? 1 })
      : r.kind === "health_safety"
        ? t("summary.health_safety")
        : t("summary.negative_share_rise", {
            points: r.threshold ?? 0,
            category: r.category ? (tc.has(r.category) ? tc(r.category) : r.category) : t("anyCategory"),
          });
}

function RuleCard({ rule, subject }: { rule: TAlertRuleOut; subject: Subject }) {
  const t = useTranslations("alerts");
  const f = useFormats();
  const trpc = useTRPC();
  const client = useQueryClient();
  const summary = useRuleSummary();
  const [confirming, setConfirming] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: trpc.scrape.alerts.list.queryKey(subject) });
  const toggle = useMutation(trpc.scrape.alerts.setEnabled.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.scrape.alerts.delete.mutationOptions({ onSuccess: refresh }));
  const channels = [
    rule.webhook_url ? t("channel.webhook", { url: rule.webhook_url }) : null,
    rule.email ? t("channel.email", { email: rule.email }) : null,
    rule.mesh_id
      ? t("channel.mesh", {
          mesh: rule.mesh_name ?? rule.mesh_id,
          group: rule.mesh_group ? `@${rule.mesh_group}` : t("teamGroups"),
        })
      : null,
  ].filter((c): c is string => c !== null);
  return (
    <article className="stack-sm rule-card" data-testid="alert-rule" data-kind={rule.kind}>
      <div className="row-between">
        <h3 className="h4">{rule.name ?? summary(rule)}</h3>
        <Tag tone={rule.enabled ? "success" : "neutral"}>{rule.enabled ? t("on") : t("off")}</Tag>
      </div>
      {rule.name || rule.kind !== "negative_share_rise" ? (
        <p className="muted small">
          {[
            rule.name ? summary(rule) : null,
            rule.kind === "negative_share_rise" ? null : t("within", { count: rule.max_age_days }),
          ]
            .filter(Boolean)
            .join(" · ")}
        </p>
      ) : null}
      <ul className="small plain-list">
        {channels.map((c) => (
          <li key={c} className="break-anywhere">
            {c}
          </li>
        ))}
      </ul>
      <p className="small">{t("alertCount", { count: rule.alert_count, n: f.number(rule.alert_count) })}</p>
      {rule.alerts.length > 0 ? <AlertList rule={rule} /> : null}
      {confirming ? (
        <ConfirmBox
          text={t("deleteConfirm")}
          yes={t("deleteYes")}
          cancel={t("keep")}
          pending={remove.isPending}
          onYes={() => remove.mutate({ rule_id: rule.id })}
          onCancel={() => setConfirming(false)}
        />
      ) : (
        <p className="row">
          <button
            type="button"
            className="button secondary small"
            disabled={toggle.isPending}
            onClick={() => toggle.mutate({ rule_id: rule.id, enabled: !rule.enabled })}
          >
            {rule.enabled ? t("turnOff") : t("turnOn")}
          </button>
          <button type="button" className="button secondary small" onClick={() => setConfirming(true)}>
            {t("delete")}
          </button>
        </p>
      )}
      {toggle.isError || remove.isError ? (
        <p className="alert" role="alert">
          {t("actionFailed")}
        </p>
      ) : null}
    </article>
  );
}

interface AlertPayloadView {
  review?: { rating: number | null; text: string | null; author: string | null } | null;
  share?: { category: string; previous_pct: number; current_pct: number } | null;
  place?: { name: string | null; place_key: string };
}

function AlertList({ rule }: { rule: TAlertRuleOut }) {
  const t = useTranslations("alerts");
  const tc = useTranslations("pipelines.labels");
  const f = useFormats();
  const locale = useLocale();
  return (
    <ScrollRegion label={t("recent")} cards>
      <table>
        <thead>
          <tr>
            <th scope="col">{t("when")}</th>
            <th scope="col">{t("what")}</th>
            <th scope="col">{t("deliveries")}</th>
          </tr>
        </thead>
        <tbody>
          {rule.alerts.map((a) => {
            const p = a.payload as AlertPayloadView;
            const what = p.share
              ? t("shareLine", {
                  category: tc.has(p.share.category) ? tc(p.share.category) : p.share.category,
                  from: f.percent(p.share.previous_pct),
                  to: f.percent(p.share.current_pct),
                })
              : p.review
                ? `${p.review.rating !== null ? `${"★".repeat(p.review.rating)} ` : ""}${p.review.text ?? t("noText")}`
                : "";
            return (
              <tr key={a.id} data-testid="alert">
                <td data-label={t("when")}>
                  <LocalTime iso={new Date(a.created_at).toISOString()} withTime />
                </td>
                <td data-label={t("what")} className="break-anywhere">
                  {what.length > 160 ? `${what.slice(0, 159)}…` : what}
                  {a.execution_id ? (
                    <>
                      {" "}
                      <a href={`/${locale}/pipelines/review-analytics/executions/${a.execution_id}`}>{t("evidence")}</a>
                    </>
                  ) : null}
                </td>
                <td data-label={t("deliveries")}>
                  <ul className="plain-list row">
                    {a.deliveries.map((d) => (
                      <li key={`${d.channel}-${d.target}`} title={d.last_error ?? undefined}>
                        <span className="small">
                          {t(`channelName.${d.channel}`)}
                          {d.target ? ` @${d.target}` : ""}:{" "}
                        </span>
                        <StatusBadge status={d.state} />
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
