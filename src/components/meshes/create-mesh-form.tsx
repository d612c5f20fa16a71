"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Link, useRouter } from "@/i18n/navigation";
import { ZCreateMeshInput } from "@/server/services/meshes/create-mesh.schema";
import { MESH_TIERS, MESH_TRANSPORTS, MESH_VISIBILITIES, slugify } from "@/server/services/meshes/schemas";
import { useTRPC } from "@/trpc/react";
import { apiErrorKeys } from "./api-errors";

type Field = "name" | "slug";

/** Create-mesh form: slug suggested from the name until edited, inline zod errors, taken slug explained. */
export function CreateMeshForm() {
  const t = useTranslations("createMesh");
  const tm = useTranslations("meshes");
  const te = useTranslations("errorsApi");
  const router = useRouter();
  const trpc = useTRPC();
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field | "form", string[]>>>({});
  const create = useMutation(
    trpc.my.createMesh.mutationOptions({
      onSuccess: (mesh) => router.push(`/dashboard/meshes/${mesh.id}`),
      onError: (error) => setErrors(apiErrorKeys(error)),
    }),
  );
  const message = (key: string) => (te.has(key) ? te(key) : te("generic"));

  function submit(form: FormData) {
    const parsed = ZCreateMeshInput.safeParse(Object.fromEntries(form));
    if (!parsed.success) {
      const fieldErrors: Partial<Record<Field, string[]>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        (fieldErrors[field] ??= []).push(issue.message);
      }
      setErrors(fieldErrors);
      return;
    }
    setErrors({});
    create.mutate(parsed.data);
  }

  const fieldError = (field: Field) =>
    errors[field]?.length ? (
      <small id={`mesh-${field}-error`} className="field-error">
        {errors[field]?.map(message).join(" ")}
      </small>
    ) : null;

  return (
    <form action={submit} className="form" noValidate>
      {errors.form?.length ? (
        <p className="alert" role="alert">
          {errors.form.map(message).join(" ")}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor="mesh-name">{t("name")}</label>
        <input
          id="mesh-name"
          name="name"
          value={name}
          required
          aria-invalid={!!errors.name?.length}
          aria-describedby={errors.name?.length ? "mesh-name-error" : undefined}
          onChange={(e) => {
            setName(e.target.value);
            if (!slugEdited) setSlug(slugify(e.target.value));
          }}
        />
        {fieldError("name")}
      </div>
      <div className="field">
        <label htmlFor="mesh-slug">{t("slug")}</label>
        <input
          id="mesh-slug"
          name="slug"
          value={slug}
          required
          aria-invalid={!!errors.slug?.length}
          aria-describedby={`mesh-slug-hint${errors.slug?.length ? " mesh-slug-error" : ""}`}
          onChange={(e) => {
            setSlug(e.target.value);
            setSlugEdited(true);
          }}
        />
        <small id="mesh-slug-hint" className="muted">
          {t("slugHint")}
        </small>
        {fieldError("slug")}
      </div>
      {(
        [
          ["visibility", MESH_VISIBILITIES],
          ["transport", MESH_TRANSPORTS],
          ["tier", MESH_TIERS],
        ] as const
      ).map(([field, values]) => (
        <div className="field" key={field}>
          <label htmlFor={`mesh-${field}`}>{t(field)}</label>
          <select id={`mesh-${field}`} name={field} defaultValue={values[0]}>
            {values.map((v) => (
              <option key={v} value={v}>
                {tm(`${field}.${v}`)}
              </option>
            ))}
          </select>
        </div>
      ))}
      <div className="row">
        <button type="submit" className="button" disabled={create.isPending}>
          {create.isPending ? t("pending") : t("submit")}
        </button>
        <Link href="/dashboard">{t("cancel")}</Link>
      </div>
    </form>
  );
}
