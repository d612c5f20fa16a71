/** A job's place by its name, with its key (platform id or URL) as secondary text; the key alone until a run read the name. */
export function PlaceLabel({ name, placeKey }: { name: string | null; placeKey: string | null }) {
  if (!name) return <code>{placeKey ?? "—"}</code>;
  return (
    <>
      {name} {placeKey ? <code className="muted small">{placeKey}</code> : null}
    </>
  );
}
