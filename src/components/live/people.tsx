"use client";

import { useTranslations } from "next-intl";
import { LocalTime } from "@/components/local-time";
import { ScrollRegion } from "@/components/widgets/scroll-region";
import { useNewIds } from "./use-new-ids";
import { statusLabel, type Tr } from "@/components/audit-sentence";

type Role = "owner" | "admin" | "member" | "observer";
export interface LivePerson {
  id: string;
  displayName: string;
  userId: string | null;
  userName: string | null;
  device: boolean;
  role: Role;
  online: boolean;
  /** A live connection of it takes messages; online without it, it only sends. */
  canReceive: boolean;
  onlineSince: Date | null;
  lastSeenAt: Date | null;
  status: string | null;
  statusText: string | null;
  statusAt: Date | null;
}

/** A member's state as one key: a row whose presence or status changed is marked like a new one. */
const stateKey = (m: LivePerson) =>
  `${m.id}|${m.online}|${m.canReceive}|${m.status ?? ""}|${m.statusText ?? ""}|${m.statusAt?.getTime() ?? ""}`;

/**
 * The mesh's people, online first: who, which device, role, online since or last seen, and status. The
 * count above counts people, not rows (a person with a browser and two devices is one; the server's rule).
 */
export function LivePeople({
  members,
  total,
  people,
}: {
  members: readonly LivePerson[];
  total: number;
  people: { online: number; total: number };
}) {
  const t = useTranslations("live");
  const tm = useTranslations("meshes");
  const fresh = useNewIds(members.map(stateKey), true);
  return (
    <div className="card stack-sm">
      <h2>{t("people")}</h2>
      <p className="muted" role="status">
        {t("onlineCount", { online: people.online, total: people.total })}
      </p>
      <ScrollRegion label={t("people")} cards>
        <table>
          <thead>
            <tr>
              <th scope="col">{t("person")}</th>
              <th scope="col">{t("device")}</th>
              <th scope="col">{t("role")}</th>
              <th scope="col">{t("presence")}</th>
              <th scope="col">{t("status")}</th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => {
              const isNew = fresh.has(stateKey(m));
              return (
                <tr key={m.id} className={isNew ? "fresh" : undefined} data-testid="live-person">
                  <td>
                    <strong>{m.userName ?? m.displayName}</strong>{" "}
                    {isNew ? <span className="badge tone-info">{t("newRow")}</span> : null}
                  </td>
                  <td>
                    {m.device
                      ? t("deviceNamed", { name: m.displayName })
                      : m.userId
                        ? t("inBrowser")
                        : t("anonymousPeer", { name: m.displayName })}
                  </td>
                  <td>{tm(`roles.${m.role}`)}</td>
                  <td>
                    {m.online ? (
                      <>
                        <span className={m.canReceive ? "badge tone-success" : "badge tone-neutral"}>
                          {m.canReceive ? t("online") : t("sendsOnly")}
                        </span>{" "}
                        {m.onlineSince ? (
                          <>
                            {t("since")} <LocalTime iso={m.onlineSince.toISOString()} />
                          </>
                        ) : null}
                      </>
                    ) : m.lastSeenAt ? (
                      <>
                        {t("offline")} · {t("lastSeen")} <LocalTime iso={m.lastSeenAt.toISOString()} />
                      </>
                    ) : (
                      t("neverSeen")
                    )}
                  </td>
                  <td data-testid="live-status">
                    {m.status ? (
                      <>
                        {statusLabel(t as unknown as Tr, m.status)}
                        {m.statusText ? `: ${m.statusText}` : ""}
                        {m.statusAt ? (
                          <>
                            {" "}
                            · {t("since")} <LocalTime iso={m.statusAt.toISOString()} />
                          </>
                        ) : null}
                      </>
                    ) : (
                      <span className="muted">{t("noStatus")}</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
      {total > members.length ? <p className="muted">{t("morePeople", { count: total - members.length })}</p> : null}
    </div>
  );
}
