import type { DemoPlace, TLayout } from "../generate";
import { documentHtml, esc } from "./html";

/** The home page: every place with its layout, review count and any special behaviour. */
export function indexPage(places: { place: DemoPlace; layout: TLayout; note: string | null }[]): string {
  const rows = places
    .map(
      ({ place, layout, note }) => `<tr data-place-id="${esc(place.id)}">
  <td><a href="/places/${esc(place.id)}">${esc(place.name)}</a></td><td><code>${esc(place.id)}</code></td>
  <td>${esc(place.city)}</td><td>${place.rating}</td><td>${place.reviewCount}</td><td>${layout}</td><td>${esc(note ?? "")}</td></tr>`,
    )
    .join("\n");
  const body = `<main>
<h1>Demo reviews platform</h1>
<p>Generated places for the review collection engine. JSON: <a href="/api/places">/api/places</a> · settings: <a href="/admin/settings">/admin/settings</a></p>
<table class="places"><thead><tr><th>Name</th><th>Id</th><th>City</th><th>Rating</th><th>Reviews</th><th>Layout</th><th>Behaviour</th></tr></thead>
<tbody>${rows}</tbody></table>
</main>`;
  return documentHtml({
    title: "Demo reviews platform",
    body,
    style:
      "table{border-collapse:collapse;background:#fff}td,th{padding:4px 10px;border-bottom:1px solid #dde;text-align:left}",
  });
}
