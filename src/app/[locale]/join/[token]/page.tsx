import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { headers } from "next/headers";
import { CopyField } from "@/components/copy-field";
import { CliJoin, FullLinks } from "@/components/meshes/cli-join";
import { JoinForm } from "@/components/meshes/join-form";
import { LocalTime } from "@/components/local-time";
import { Link } from "@/i18n/navigation";
import { getSessionUser } from "@/server/auth/session-user";
import { normaliseInviteCode } from "@/server/core/invites";
import { requestSettings } from "@/server/services/context";
import { shortJoinUrl } from "@/server/services/invites/join-links";
import { loadJoinInvite } from "@/trpc/load-invite";

// The segment is a signed token or a short link's code (docs/invites.md); either way the preview is
// rendered on the server, so a shared link shows what it leads to at once.
type Params = Promise<{ locale: string; token: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { locale, token } = await params;
  const t = await getTranslations({ locale, namespace: "join" });
  const loaded = await loadJoinInvite(decodeURIComponent(token)).catch(() => null);
  const p = loaded?.kind === "preview" ? loaded.preview : null;
  return { title: p?.valid ? t("title", { mesh: p.meshName ?? "" }) : t("failedTitle"), robots: { index: false } };
}

export default async function JoinPage({ params }: { params: Params }) {
  const { locale, token: raw } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("join");
  const tm = await getTranslations("meshes");
  const segment = decodeURIComponent(raw);
  const loaded = await loadJoinInvite(segment);
  if (loaded.kind === "limited") {
    return (
      <section className="stack narrow">
        <h1>{t("failedTitle")}</h1>
        <p className="alert" role="alert" data-reason="rate_limited">
          {t("rateLimited", { seconds: loaded.retryAfterSeconds })}
        </p>
      </section>
    );
  }
  const { token, preview: p } = loaded;
  const user = await getSessionUser();
  // Signing in (or up) from here comes back here, by the link that was opened (short or long).
  const back = { callbackUrl: `/${locale}/join/${encodeURIComponent(segment)}` };
  const roleName =
    p.role && ["owner", "admin", "member", "observer"].includes(p.role)
      ? tm(`roles.${p.role}` as "roles.member")
      : (p.role ?? "");
  const link = `ic://join/${token}`;
  // Opened by a short link: the command takes that (mesh asks this web app for the token), on the
  // address the page was opened at when it is one of the app's own (src/server/core/link-base.ts).
  const code = normaliseInviteCode(segment);
  const commandLink = code ? shortJoinUrl(requestSettings(await headers()).publicBaseUrl, code) : link;

  if (!p.valid) {
    return (
      <section className="stack narrow">
        <h1>{t("failedTitle")}</h1>
        <p className="alert" role="alert" data-reason={p.reason}>
          {t(`reasons.${p.reason}`, { mesh: p.meshName ?? t("unknownMesh") })}
        </p>
        {p.reason === "expired" && p.expiresAt ? (
          <p className="muted">
            {t("expiredOn")} <LocalTime iso={p.expiresAt.toISOString()} />
          </p>
        ) : null}
        {p.meshName ? <p className="muted">{t("meshLine", { mesh: p.meshName })}</p> : null}
        {p.inviterName ? <p className="muted">{t("inviterLine", { name: p.inviterName })}</p> : null}
        {user ? null : (
          <p>
            <Link href={{ pathname: "/sign-in", query: back }}>{t("signInHint")}</Link>
          </p>
        )}
      </section>
    );
  }
  return (
    <section className="stack narrow">
      <h1>{t("title", { mesh: p.meshName ?? "" })}</h1>
      <p className="lead">{t("invitedBy", { name: p.inviterName ?? "", role: roleName })}</p>
      <p className="muted">
        {t("details", { count: p.memberCount ?? 0 })}
        {p.expiresAt ? (
          <>
            {" · "}
            {t("expiresOn")} <LocalTime iso={p.expiresAt.toISOString()} />
          </>
        ) : null}
      </p>
      <div className="card stack-sm" data-testid="join-browser">
        <h2>{t("browserTitle")}</h2>
        {user ? (
          <>
            <p>{t("browserBody")}</p>
            <JoinForm token={token} defaultName={user.name ?? user.email.split("@")[0] ?? ""} />
          </>
        ) : (
          <>
            <p>{t("signedOutBody")}</p>
            <div className="row">
              <Link className="button" href={{ pathname: "/sign-in", query: back }} data-testid="join-sign-in">
                {t("signInToJoin")}
              </Link>
              <Link
                className="button secondary"
                href={{ pathname: "/sign-up", query: back }}
                data-testid="join-sign-up"
              >
                {t("signUpToJoin")}
              </Link>
            </div>
          </>
        )}
      </div>
      <div className="card stack-sm">
        <h2>{t("howTitle")}</h2>
        <p>{t("howBody")}</p>
        <CliJoin link={commandLink} />
        <FullLinks summary={t("showFullLink")}>
          <p className="muted small">{t("fullLinkHint")}</p>
          <CopyField label={t("linkLabel")} value={link} testId="invite-link" />
        </FullLinks>
      </div>
    </section>
  );
}
