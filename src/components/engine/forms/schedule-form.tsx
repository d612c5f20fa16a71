"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { useRouter } from "@/i18n/navigation";
import { useTRPC } from "@/trpc/react";
import { FieldError, FormFooter, RequesterField, useApiErrors } from "./field";
import { PlacePicker, placeFields, type PlaceChoice } from "./place-picker";
import { EMPTY_TARGET, TargetFields, targetFields, type TargetValues } from "./target-fields";

const MODES = ["new_only", "full"] as const;
/** The cadences the form offers: every N hours or days, or a cron expression (UTC). */
const CADENCES = ["hours", "days", "cron"] as const;
const SECONDS = { hours: 3_600, days: 86_400 } as const;

/**
 * A new monitoring schedule of one place, submitted through the API's own procedure and schema
 * (scrape.schedules.create, POST /api/schedules): the target as for a job, the cadence (an interval
 * or a cron expression in UTC), the mode and when new_only stops; then the schedule's page.
 */
export function ScheduleForm() {
  const t = useTranslations("engineForms");
  const ta = useTranslations("alerts");
  const trpc = useTRPC();
  const router = useRouter();
  const [name, setName] = useState("");
  const [place, setPlace] = useState<PlaceChoice>({ kind: "platform_id", id: "" });
  const [target, setTarget] = useState<TargetValues>(EMPTY_TARGET);
  const [cadence, setCadence] = useState<(typeof CADENCES)[number]>("days");
  const [every, setEvery] = useState("1");
  const [cron, setCron] = useState("0 6 * * *");
  const [mode, setMode] = useState<(typeof MODES)[number]>("new_only");
  const [stopAfter, setStopAfter] = useState("20");
  const [analyse, setAnalyse] = useState(false);
  const [client, setClient] = useState("web");
  const create = useMutation(
    trpc.scrape.schedules.create.mutationOptions({ onSuccess: (s) => router.push(`/engine/schedules/${s.id}`) }),
  );
  const { fields, refusal, code } = useApiErrors(create.error);
  const when =
    cadence === "cron" ? { cron } : { interval_seconds: every.trim() ? Number(every) * SECONDS[cadence] : Number.NaN };

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    create.mutate({
      ...(name.trim() ? { name: name.trim() } : {}),
      requester_client_id: client.trim(),
      targets: [{ ...placeFields(place), ...targetFields(target) }],
      ...when,
      mode,
      ...(stopAfter.trim() ? { stop_after_known: Number(stopAfter) } : {}),
      analyse_after_run: analyse,
    });
  }
  const invalid = (k: string) => (fields.has(k) ? { "aria-invalid": true, "aria-describedby": `f-${k}-error` } : {});

  return (
    <form className="card form form-grid" onSubmit={onSubmit} noValidate aria-label={t("newSchedule")}>
      <div className="field">
        <label htmlFor="f-name">{t("name")}</label>
        <input
          id="f-name"
          value={name}
          maxLength={200}
          {...invalid("name")}
          onChange={(e) => setName(e.target.value)}
        />
        <FieldError id="f-name-error" message={fields.get("name")} />
      </div>
      <PlacePicker value={place} onChange={setPlace} errors={fields} />
      <TargetFields value={target} onChange={setTarget} errors={fields} />
      <div className="field">
        <label htmlFor="f-cadence">{t("cadence")}</label>
        <select id="f-cadence" value={cadence} onChange={(e) => setCadence(e.target.value as typeof cadence)}>
          {CADENCES.map((c) => (
            <option key={c} value={c}>
              {t(`cadences.${c}`)}
            </option>
          ))}
        </select>
      </div>
      {cadence === "cron" ? (
        <div className="field">
          <label htmlFor="f-cron">{t("cron")}</label>
          <input
            id="f-cron"
            value={cron}
            maxLength={100}
            {...invalid("cron")}
            aria-describedby={`f-cron-hint${fields.has("cron") ? " f-cron-error" : ""}`}
            onChange={(e) => setCron(e.target.value)}
          />
          <span id="f-cron-hint" className="muted small">
            {t("cronHint")}
          </span>
          <FieldError id="f-cron-error" message={fields.get("cron")} />
        </div>
      ) : (
        <div className="field">
          <label htmlFor="f-interval_seconds">{t(`every.${cadence}`)}</label>
          <input
            id="f-interval_seconds"
            type="number"
            inputMode="numeric"
            value={every}
            {...invalid("interval_seconds")}
            onChange={(e) => setEvery(e.target.value)}
          />
          <FieldError id="f-interval_seconds-error" message={fields.get("interval_seconds") ?? fields.get("cron")} />
        </div>
      )}
      <div className="field">
        <label htmlFor="f-mode">{t("mode")}</label>
        <select
          id="f-mode"
          value={mode}
          aria-describedby="f-mode-hint"
          onChange={(e) => setMode(e.target.value as typeof mode)}
        >
          {MODES.map((m) => (
            <option key={m} value={m}>
              {t(`modes.${m}`)}
            </option>
          ))}
        </select>
        <span id="f-mode-hint" className="muted small">
          {t("modeHint")}
        </span>
      </div>
      {mode === "new_only" ? (
        <div className="field">
          <label htmlFor="f-stop_after_known">{t("stopAfterKnown")}</label>
          <input
            id="f-stop_after_known"
            type="number"
            inputMode="numeric"
            value={stopAfter}
            {...invalid("stop_after_known")}
            onChange={(e) => setStopAfter(e.target.value)}
          />
          <FieldError id="f-stop_after_known-error" message={fields.get("stop_after_known")} />
        </div>
      ) : null}
      <div className="field">
        <label className="row">
          <input
            id="f-analyse_after_run"
            type="checkbox"
            checked={analyse}
            aria-describedby="f-analyse-hint"
            onChange={(e) => setAnalyse(e.target.checked)}
          />{" "}
          {ta("analyseAfterRun")}
        </label>
        <span id="f-analyse-hint" className="muted small">
          {ta("analyseAfterRunHint")}
        </span>
      </div>
      <RequesterField value={client} onChange={setClient} error={fields.get("requester_client_id")} />
      <FormFooter
        refusal={refusal}
        code={code}
        pending={create.isPending}
        done={create.isSuccess}
        label={t("createSchedule")}
        busyLabel={t("creating")}
      />
    </form>
  );
}
