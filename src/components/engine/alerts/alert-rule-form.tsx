"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import type { Locale } from "@/i18n/routing";
import { ALERT_KINDS } from "@/server/services/alerts/alert-rules.schema";
import { CATEGORIES } from "@/server/pipelines/review-analytics/taxonomy";
import { useTRPC } from "@/trpc/react";
import { FieldError, FormFooter, useApiErrors } from "../forms/field";

type Subject = { schedule_id: string } | { place_id: string };
type Kind = (typeof ALERT_KINDS)[number];

/**
 * A new alert rule of a schedule or place, through the API's own procedure and schema
 * (scrape.alerts.create, POST /api/alert-rules): what it watches and where it sends (a webhook, an
 * e-mail address, a mesh with a review bot). A webhook's signing secret is shown once afterwards.
 */
export function AlertRuleForm({ subject, onDone }: { subject: Subject; onDone: () => void }) {
  const t = useTranslations("alerts");
  const tl = useTranslations("pipelines.labels");
  const locale = useLocale() as Locale;
  const trpc = useTRPC();
  const client = useQueryClient();
  const [kind, setKind] = useState<Kind>("low_rating");
  const [stars, setStars] = useState("2");
  const [points, setPoints] = useState("10");
  const [category, setCategory] = useState("");
  const [maxAge, setMaxAge] = useState("7");
  const [name, setName] = useState("");
  const [webhook, setWebhook] = useState("");
  const [email, setEmail] = useState("");
  const [meshId, setMeshId] = useState("");
  const [group, setGroup] = useState("");
  const meshes = useQuery(trpc.scrape.alerts.meshes.queryOptions());
  const create = useMutation(
    trpc.scrape.alerts.create.mutationOptions({
      onSuccess: async (rule) => {
        await client.invalidateQueries({ queryKey: trpc.scrape.alerts.list.queryKey(subject) });
        if (!rule.webhook_secret) onDone();
      },
    }),
  );
  const { fields, refusal, code } = useApiErrors(create.error);
  const invalid = (k: string) => (fields.has(k) ? { "aria-invalid": true, "aria-describedby": `a-${k}-error` } : {});

  if (create.data?.webhook_secret) {
    return (
      <div className="card stack-sm" role="status" data-testid="webhook-secret">
        <p>{t("secretShownOnce")}</p>
        <code className="break-anywhere">{create.data.webhook_secret}</code>
        <p>
          <button type="button" className="button small" onClick={onDone}>
            {t("done")}
          </button>
        </p>
      </div>
    );
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    create.mutate({
      ...subject,
      kind,
      ...(kind === "low_rating" ? { threshold: Number(stars) } : {}),
      ...(kind === "negative_share_rise"
        ? { threshold: points.trim() ? Number(points) : Number.NaN, ...(category ? { category } : {}) }
        : {}),
      ...(kind !== "negative_share_rise" && maxAge.trim() ? { max_age_days: Number(maxAge) } : {}),
      ...(name.trim() ? { name: name.trim() } : {}),
      ...(webhook.trim() ? { webhook_url: webhook.trim() } : {}),
      ...(email.trim() ? { email: email.trim() } : {}),
      ...(meshId ? { mesh_id: meshId, ...(group.trim() ? { mesh_group: group.trim() } : {}) } : {}),
      locale,
    } as Parameters<typeof create.mutate>[0]);
  }

  const bots = meshes.data ?? [];
  return (
    <form className="card form form-grid" onSubmit={onSubmit} noValidate aria-label={t("add")}>
      <div className="field">
        <label htmlFor="a-kind">{t("kind")}</label>
        <select id="a-kind" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
          {ALERT_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`kinds.${k}`)}
            </option>
          ))}
        </select>
      </div>
      {kind === "low_rating" ? (
        <div className="field">
          <label htmlFor="a-threshold">{t("stars")}</label>
          <select id="a-threshold" value={stars} onChange={(e) => setStars(e.target.value)} {...invalid("threshold")}>
            {[1, 2, 3, 4, 5].map((n) => (
              <option key={n} value={n}>
                {t("starsOption", { stars: n })}
              </option>
            ))}
          </select>
          <FieldError id="a-threshold-error" message={fields.get("threshold")} />
        </div>
      ) : null}
      {kind === "negative_share_rise" ? (
        <>
          <div className="field">
            <label htmlFor="a-threshold">{t("points")}</label>
            <input
              id="a-threshold"
              inputMode="numeric"
              value={points}
              onChange={(e) => setPoints(e.target.value)}
              aria-describedby="a-threshold-hint"
              {...invalid("threshold")}
            />
            <span id="a-threshold-hint" className="muted small">
              {t("pointsHint")}
            </span>
            <FieldError id="a-threshold-error" message={fields.get("threshold")} />
          </div>
          <div className="field">
            <label htmlFor="a-category">{t("category")}</label>
            <select id="a-category" value={category} onChange={(e) => setCategory(e.target.value)}>
              <option value="">{t("anyCategory")}</option>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {tl(c)}
                </option>
              ))}
            </select>
          </div>
        </>
      ) : null}
      {kind !== "negative_share_rise" ? (
        <div className="field">
          <label htmlFor="a-max_age_days">{t("maxAgeDays")}</label>
          <input
            id="a-max_age_days"
            inputMode="numeric"
            value={maxAge}
            onChange={(e) => setMaxAge(e.target.value)}
            aria-describedby="a-max-age-hint"
            {...invalid("max_age_days")}
          />
          <span id="a-max-age-hint" className="muted small">
            {t("maxAgeDaysHint")}
          </span>
          <FieldError id="a-max_age_days-error" message={fields.get("max_age_days")} />
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="a-name">{t("name")}</label>
        <input id="a-name" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
      </div>
      <fieldset className="stack-sm">
        <legend>{t("sendTo")}</legend>
        <p className="muted small">{t("sendToHint")}</p>
        <div className="field">
          <label htmlFor="a-webhook_url">{t("webhook")}</label>
          <input
            id="a-webhook_url"
            type="url"
            value={webhook}
            placeholder="https://"
            onChange={(e) => setWebhook(e.target.value)}
            aria-describedby="a-webhook-hint"
            {...invalid("webhook_url")}
          />
          <span id="a-webhook-hint" className="muted small">
            {t("webhookHint")}
          </span>
          <FieldError id="a-webhook_url-error" message={fields.get("webhook_url")} />
        </div>
        <div className="field">
          <label htmlFor="a-email">{t("email")}</label>
          <input
            id="a-email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            {...invalid("email")}
          />
          <FieldError id="a-email-error" message={fields.get("email")} />
        </div>
        <div className="field">
          <label htmlFor="a-mesh">{t("mesh")}</label>
          <select id="a-mesh" value={meshId} onChange={(e) => setMeshId(e.target.value)} aria-describedby="a-mesh-hint">
            <option value="">{t("noMesh")}</option>
            {bots.map((b) => (
              <option key={b.mesh_id} value={b.mesh_id}>
                {b.mesh_name}
              </option>
            ))}
          </select>
          <span id="a-mesh-hint" className="muted small">
            {bots.length === 0 ? t("noBotHint") : t("meshHint")}
          </span>
          <FieldError id="a-mesh_id-error" message={fields.get("mesh_id")} />
        </div>
        {meshId ? (
          <div className="field">
            <label htmlFor="a-mesh_group">{t("group")}</label>
            <input
              id="a-mesh_group"
              value={group}
              list="a-groups"
              placeholder={t("groupPlaceholder")}
              onChange={(e) => setGroup(e.target.value)}
              aria-describedby="a-group-hint"
              {...invalid("mesh_group")}
            />
            <datalist id="a-groups">
              {(bots.find((b) => b.mesh_id === meshId)?.groups ?? []).map((g) => (
                <option key={g} value={g} />
              ))}
            </datalist>
            <span id="a-group-hint" className="muted small">
              {t("groupHint")}
            </span>
            <FieldError id="a-mesh_group-error" message={fields.get("mesh_group")} />
          </div>
        ) : null}
      </fieldset>
      <FormFooter
        refusal={refusal}
        code={code}
        pending={create.isPending}
        done={false}
        label={t("create")}
        busyLabel={t("creating")}
      />
      <p>
        <button type="button" className="button secondary small" onClick={onDone}>
          {t("cancel")}
        </button>
      </p>
    </form>
  );
}
