"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { SectionNav } from "@/components/ui/section-nav";
import { totalUnread, UNREAD_EVENT } from "@/chat/browser-store";

/**
 * A mesh's sections (overview, live view, chat) as the section navigation of the design system, with the
 * chat's unread count (kept on this device by the chat page; this tab hears its event, others `storage`).
 */
export function MeshNav({ meshId }: { meshId: string }) {
  const t = useTranslations("chat.nav");
  const [unread, setUnread] = useState(0);
  useEffect(() => {
    const update = () => setUnread(totalUnread(meshId));
    update();
    window.addEventListener(UNREAD_EVENT, update);
    window.addEventListener("storage", update);
    return () => {
      window.removeEventListener(UNREAD_EVENT, update);
      window.removeEventListener("storage", update);
    };
  }, [meshId]);
  const base = `/dashboard/meshes/${meshId}`;
  return (
    <SectionNav
      label={t("label")}
      items={[
        { href: base, label: t("overview"), exact: true },
        { href: `${base}/live`, label: t("live") },
        { href: `${base}/chat`, label: unread > 0 ? t("chatUnread", { count: unread }) : t("chat") },
      ]}
    />
  );
}
