import { Link } from "@/i18n/navigation";

/**
 * A job's place by its name, with its key (platform id or URL) as secondary text; the key alone until a
 * run read the name. With `placeId` the name links to the place's page.
 */
export function PlaceLabel({
  name,
  placeKey,
  placeId,
}: {
  name: string | null;
  placeKey: string | null;
  placeId?: string | null;
}) {
  const label = name ?? <code>{placeKey ?? "—"}</code>;
  return (
    <>
      {placeId ? <Link href={`/engine/places/${placeId}`}>{label}</Link> : label}
      {name && placeKey ? (
        <>
          {" "}
          <code className="muted small">{placeKey}</code>
        </>
      ) : null}
    </>
  );
}
