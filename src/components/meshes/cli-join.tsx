import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { CopyField } from "@/components/copy-field";

/** Builds and installs the `mesh` command from the product's source (docs/cli.md, "Install"). */
export const INSTALL_MESH_COMMAND = "cd packages/mesh-cli && npm pack && npm install -g ./review-mesh-cli-*.tgz";

/**
 * Joining from a terminal: the `mesh join` command on the shortest link there is, and where `mesh`
 * comes from behind a disclosure, so a first-time reader is not left with a command they cannot run.
 */
export function CliJoin({ link }: { link: string }) {
  const t = useTranslations("join");
  return (
    <div className="stack-sm" data-testid="cli-join">
      <CopyField label={t("commandLabel")} value={`mesh join "${link}"`} testId="join-command" />
      <details data-testid="install-mesh">
        <summary>{t("installQuestion")}</summary>
        <p className="muted small">{t("installBody")}</p>
        <CopyField label={t("installLabel")} value={INSTALL_MESH_COMMAND} testId="install-command" />
      </details>
    </div>
  );
}

/** The long forms of an invite (its full web link, its `ic://` link) behind a "show full link" disclosure. */
export function FullLinks({ children, summary }: { children: ReactNode; summary: string }) {
  return (
    <details data-testid="full-link">
      <summary>{summary}</summary>
      <div className="stack-sm">{children}</div>
    </details>
  );
}
