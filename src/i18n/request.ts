import { hasLocale, IntlErrorCode } from "next-intl";
import { getRequestConfig } from "next-intl/server";
import { routing } from "./routing";

export default getRequestConfig(async ({ requestLocale }) => {
  const requested = await requestLocale;
  const locale = hasLocale(routing.locales, requested) ? requested : routing.defaultLocale;
  return {
    locale,
    messages: (await import(`./messages/${locale}.json`)).default,
    onError(error) {
      // A missing message is a bug: say so loudly (the e2e suite fails on this line).
      if (error.code === IntlErrorCode.MISSING_MESSAGE) console.error(`[i18n] missing message: ${error.message}`);
      else console.error(`[i18n] ${error.message}`);
    },
  };
});
