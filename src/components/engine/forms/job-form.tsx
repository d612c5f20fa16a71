"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { useRouter } from "@/i18n/navigation";
import { useTRPC } from "@/trpc/react";
import { FormFooter, RequesterField, useApiErrors } from "./field";
import { PlacePicker, placeFields, type PlaceChoice } from "./place-picker";
import { EMPTY_TARGET, TargetFields, targetFields, type TargetValues } from "./target-fields";

/**
 * A new collection job, submitted through the API's own procedure and schema (scrape.create, POST
 * /api/scrape): the place, limit, sort, language and since; the API's errors under their fields; on
 * success the job's page, which follows its progress.
 */
export function JobForm() {
  const t = useTranslations("engineForms");
  const trpc = useTRPC();
  const router = useRouter();
  const [place, setPlace] = useState<PlaceChoice>({ kind: "platform_id", id: "" });
  const [target, setTarget] = useState<TargetValues>(EMPTY_TARGET);
  const [client, setClient] = useState("web");
  const create = useMutation(
    trpc.scrape.create.mutationOptions({ onSuccess: (job) => router.push(`/engine/jobs/${job.id}`) }),
  );
  const { fields, refusal, code } = useApiErrors(create.error);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    create.mutate({ requester_client_id: client.trim(), ...placeFields(place), ...targetFields(target) });
  }

  return (
    <form className="card form form-grid" onSubmit={onSubmit} noValidate aria-label={t("newJob")}>
      <PlacePicker value={place} onChange={setPlace} errors={fields} />
      <TargetFields value={target} onChange={setTarget} errors={fields} />
      <RequesterField value={client} onChange={setClient} error={fields.get("requester_client_id")} />
      <FormFooter
        refusal={refusal}
        code={code}
        pending={create.isPending}
        done={create.isSuccess}
        label={t("createJob")}
        busyLabel={t("creating")}
      />
    </form>
  );
}
