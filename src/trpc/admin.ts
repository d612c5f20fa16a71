import "server-only";
import { forbidden } from "next/navigation";
import { cache } from "react";
import { redirect } from "@/i18n/navigation";
import { getSessionUser } from "@/server/auth/session-user";
import { requestedPath } from "./return-path";
import { serverCaller } from "./server";

/**
 * The administrator of this request, or the way out: signed out goes to sign-in (and back to the
 * page asked for, else the area's start page), a signed-in non-admin gets the 403 page. Next renders a
 * layout and its page at the same time, so the area's layout and every page of it call this; the page
 * then never asks the API for data it would be refused (and no refused call is logged as a server error).
 */
export const requireAdmin = cache(async (locale: string, area: "/admin" | "/pipelines" | "/engine" = "/admin") => {
  const user = await getSessionUser();
  if (!user) {
    return redirect({
      href: {
        pathname: "/sign-in",
        query: { reason: "signed-out", callbackUrl: await requestedPath(`/${locale}${area}`) },
      },
      locale,
    });
  }
  if (!user.isAdmin) forbidden();
  return user;
});

/** The server-side caller for admin pages, after requireAdmin. */
export async function adminCaller(locale: string) {
  await requireAdmin(locale);
  return serverCaller();
}
