import "server-only";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { findPipeline } from "@/components/pipelines/load-pipeline";
import { engineObjectExists, type EngineObject } from "@/trpc/load-engine";
import { findMyMesh } from "@/trpc/load-mesh";

// Titles of the pages about one object, the object's name first (the layout adds " · Review Mesh").
// The loaders are the pages' own (cached per request): a page that is forbidden answers as its page
// does; one whose object is absent is titled "Page not found" (its page answers 404).

/** The title of a page whose object is absent: "Page not found" (the layout adds " · Review Mesh"). */
export async function notFoundTitle(locale: string): Promise<Metadata> {
  return { title: (await getTranslations({ locale, namespace: "errors" }))("notFoundTitle") };
}

type MeshParams = { params: Promise<{ locale: string; meshId: string }> };
type PipelineParams = { params: Promise<{ locale: string; pipelineId: string }> };

/** A mesh page's title: its name, or "Live: name" / "Invite to name" / "Chat: name". */
export function meshTitle(kind: "mesh" | "live" | "invite" | "chat") {
  return async ({ params }: MeshParams): Promise<Metadata> => {
    const { locale, meshId } = await params;
    const detail = await findMyMesh(meshId);
    if (!detail) return notFoundTitle(locale);
    const { mesh } = detail;
    if (kind === "mesh") return { title: mesh.name };
    const t = await getTranslations({ locale, namespace: kind });
    return { title: t("title", { mesh: mesh.name }) };
  };
}

/** A pipeline page's title: its name, then the tab (report, history, run) when not the dashboard. */
export function pipelineTitle(tab?: "report" | "executions" | "execute") {
  return async ({ params }: PipelineParams): Promise<Metadata> => {
    const { locale, pipelineId } = await params;
    const pipeline = await findPipeline(locale, pipelineId);
    if (!pipeline) return notFoundTitle(locale);
    const t = await getTranslations({ locale, namespace: "pipelines" });
    const name = t.has(`names.${pipeline.id}`) ? t(`names.${pipeline.id}`) : pipeline.name;
    return { title: tab ? `${name}: ${t(`tabs.${tab}`)}` : name };
  };
}

/** An engine detail page's title; "Page not found" when the object is absent (the page answers 404). */
export function engineTitle(kind: EngineObject, param: string, key: string) {
  return async ({ params }: { params: Promise<Record<string, string>> }): Promise<Metadata> => {
    const values = await params;
    const locale = values.locale ?? "en";
    if (!(await engineObjectExists(locale, kind, values[param] ?? ""))) return notFoundTitle(locale);
    const t = await getTranslations({ locale, namespace: "engine" });
    return { title: t(key) };
  };
}
