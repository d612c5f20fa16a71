import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

const MESH_STEPS = ["create", "invite", "cli", "e2e"] as const;
const ENGINE_STEPS = ["submit", "analyse", "report"] as const;
const code = (chunks: ReactNode) => <code>{chunks}</code>;

/** The two halves step by step: a mesh from creation to encrypted messages, a review job to its report. */
export async function HowItWorks() {
  const t = await getTranslations("home.how");
  return (
    <section className="stack" aria-labelledby="how-it-works">
      <h2 id="how-it-works">{t("title")}</h2>
      <div className="how-grid">
        <section className="card stack-sm" aria-labelledby="how-meshes">
          <h3 id="how-meshes">{t("meshesTitle")}</h3>
          <ol className="steps">
            {MESH_STEPS.map((step) => (
              <li key={step}>{t.rich(`meshSteps.${step}`, { code })}</li>
            ))}
          </ol>
        </section>
        <section className="card stack-sm" aria-labelledby="how-engine">
          <h3 id="how-engine">{t("engineTitle")}</h3>
          <ol className="steps">
            {ENGINE_STEPS.map((step) => (
              <li key={step}>{t(`engineSteps.${step}`)}</li>
            ))}
          </ol>
          {/* The one document the web app serves about its API (the docs/ folder is not served). */}
          <p className="small">
            <a href="/api/openapi.json">{t("apiDoc")}</a>
          </p>
        </section>
      </div>
    </section>
  );
}
