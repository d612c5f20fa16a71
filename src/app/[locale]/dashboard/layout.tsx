import type { ReactNode } from "react";
import { redirect } from "@/i18n/navigation";
import { getSessionUser } from "@/server/auth/session-user";
import { VerifyBanner } from "@/components/mail/account-email";
import { requestedPath } from "@/trpc/return-path";
import { serverCaller } from "@/trpc/server";

// Every dashboard page needs a signed-in user; a signed-out visit goes to sign-in and comes back to the page it asked for.
export default async function DashboardLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ locale: string }>;
}) {
  const { locale } = await params;
  if (!(await getSessionUser())) {
    redirect({
      href: {
        pathname: "/sign-in",
        query: { reason: "signed-out", callbackUrl: await requestedPath(`/${locale}/dashboard`) },
      },
      locale,
    });
  }
  // An unconfirmed address: the account works, with a banner and "send the link again" (issue 41).
  const status = await (await serverCaller()).my.emailStatus().catch(() => null);
  return (
    <>
      {status && !status.verified && status.email ? <VerifyBanner email={status.email} /> : null}
      {children}
    </>
  );
}
