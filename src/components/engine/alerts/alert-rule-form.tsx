"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import type { Locale } from "@/i18n/routing";
import { ALERT_KINDS } from "@/server/services/alerts/alert-rules.schema";
import { CATEGORIES } from "@/server/pipelines/review-analytics/taxonomy";
import { useTRPC } from "@/trpc/react";
import { Field, fieldAria, FormFooter, useApiErrors } from "../forms/field";

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
  const aria = (key: string, hint = false) => fieldAria(`a-${key}`, hint, fields.get(key));
  return (
    <form className="card form form-grid" onSubmit={onSubmit} noValidate aria-label={t("add")}>
      <Field id="a-kind" label={t("kind")}>
        <select id="a-kind" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
          {ALERT_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`kinds.${k}`)}
            </option>
          ))}
        </select>
      </Field>
      {kind === "low_rating" ? (
        <Field id="a-threshold" label={t("stars")} error={fields.get("threshold")}>
          <select id="a-threshold" value={stars} onChange={(e) => setStars(e.target.value)} {...aria("threshold")}>
            {[1, 2, 3, 4, 5].map((n) => (
              <option key={n} value={n}>
                {t("starsOption", { stars: n })}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
      {kind === "negative_share_rise" ? (
        <>
          <Field id="a-threshold" label={t("points")} hint={t("pointsHint")} error={fields.get("threshold")}>
            <input
              id="a-threshold"
              inputMode="numeric"
              value={points}
              onChange={(e) => setPoints(e.target.value)}
              {...aria("threshold", true)}
            />
          </Field>
          <Field id="a-category" label={t("category")}>
            <select id="a-category" value={category} onChange={(e) => setCategory(e.target.value)}>
              <option value="">{t("anyCategory")}</option>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {tl(c)}
                </option>
              ))}
            </select>
          </Field>
        </>
      ) : (
        <Field
          id="a-max_age_days"
          label={t("maxAgeDays")}
          hint={t("maxAgeDaysHint")}
          error={fields.get("max_age_days")}
        >
          <input
            id="a-max_age_days"
            inputMode="numeric"
            value={maxAge}
            onChange={(e) => setMaxAge(e.target.value)}
            {...aria("max_age_days", true)}
          />
        </Field>
      )}
      <Field id="a-name" label={t("name")}>
        <input id="a-name" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
      </Field>
      <fieldset className="stack-sm">
        <legend>{t("sendTo")}</legend>
        <p className="muted small">{t("sendToHint")}</p>
        <Field id="a-webhook_url" label={t("webhook")} hint={t("webhookHint")} error={fields.get("webhook_url")}>
          <input
            id="a-webhook_url"
            type="url"
            value={webhook}
            placeholder="https://"
            onChange={(e) => setWebhook(e.target.value)}
            {...aria("webhook_url", true)}
          />
        </Field>
        <Field id="a-email" label={t("email")} error={fields.get("email")}>
          <input
            id="a-email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            {...aria("email")}
          />
        </Field>
        <Field
          id="a-mesh_id"
          label={t("mesh")}
          hint={bots.length === 0 ? t("noBotHint") : t("meshHint")}
          error={fields.get("mesh_id")}
        >
          <select id="a-mesh_id" value={meshId} onChange={(e) => setMeshId(e.target.value)} {...aria("mesh_id", true)}>
            <option value="">{t("noMesh")}</option>
            {bots.map((b) => (
              <option key={b.mesh_id} value={b.mesh_id}>
                {b.mesh_name}
              </option>
            ))}
          </select>
        </Field>
        {meshId ? (
          <Field id="a-mesh_group" label={t("group")} hint={t("groupHint")} error={fields.get("mesh_group")}>
            <input
              id="a-mesh_group"
              value={group}
              list="a-groups"
              placeholder={t("groupPlaceholder")}
              onChange={(e) => setGroup(e.target.value)}
              {...aria("mesh_group", true)}
            />
            <datalist id="a-groups">
              {(bots.find((b) => b.mesh_id === meshId)?.groups ?? []).map((g) => (
                <option key={g} value={g} />
              ))}
            </datalist>
          </Field>
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
