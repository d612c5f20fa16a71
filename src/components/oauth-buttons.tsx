import { getLocale, getTranslations } from "next-intl/server";
import { oauthSignInAction } from "@/server/auth/actions";
import { enabledOAuthProviders } from "@/server/auth/providers";

/** One button per OAuth/OIDC provider that is configured; nothing when none is. */
export async function OAuthButtons({ callbackUrl }: { callbackUrl?: string }) {
  const providers = enabledOAuthProviders();
  if (providers.length === 0) return null;
  const t = await getTranslations("auth");
  const locale = await getLocale();
  return (
    <div className="stack">
      <p className="muted">{t("orContinueWith")}</p>
      {providers.map((p) => (
        <form key={p.id} action={oauthSignInAction}>
          <input type="hidden" name="provider" value={p.id} />
          <input type="hidden" name="locale" value={locale} />
          {callbackUrl ? <input type="hidden" name="callbackUrl" value={callbackUrl} /> : null}
          <button type="submit" className="button secondary">
            {t("continueWith", { provider: p.name })}
          </button>
        </form>
      ))}
    </div>
  );
}
