import type { DemoPlace, DemoReview } from "../generate";
import { documentHtml, esc } from "./html";

const STYLE = `
.place-header{background:#fff;padding:16px;border-bottom:1px solid #dde}
.tabs{display:flex;gap:8px;padding:8px 16px;background:#fff;border-bottom:1px solid #dde}
.tabs button{border:0;background:none;padding:8px 12px;cursor:pointer;font-size:15px}
.tabs button[aria-selected=true]{border-bottom:3px solid #0b5cad;font-weight:600}
.review-card{background:#fff;border:1px solid #dde;border-radius:8px;padding:12px 16px;margin:12px 0;min-height:96px}
.review-rating{color:#d98b00;letter-spacing:2px}
.owner-reply{margin-top:8px;padding:8px 12px;background:#eef3f9;border-radius:6px}
.review-sentinel,.review-end,.review-error{padding:24px;text-align:center;color:#666}
`;

const SCRIPT = `
(function(){
  var panel=document.getElementById('panel-reviews'), list=document.getElementById('review-list');
  var sentinel=document.getElementById('review-sentinel'), next=1, loading=false, started=false;
  function load(){
    if(loading||next===null)return; loading=true;
    var q=new URLSearchParams(panel.dataset.query); q.set('page',String(next));
    fetch(panel.dataset.fragment+'?'+q.toString()).then(function(res){
      if(!res.ok){ var e=document.createElement('div'); e.className='review-error'; e.dataset.status=String(res.status);
        e.textContent='Reviews could not be loaded ('+res.status+')'; sentinel.replaceWith(e); next=null; return; }
      var n=res.headers.get('x-next-page'); return res.text().then(function(html){
        list.insertAdjacentHTML('beforeend',html); next=n?Number(n):null;
        if(next===null){ var end=document.createElement('div'); end.className='review-end'; end.textContent='You have reached the end'; sentinel.replaceWith(end); }
      });
    }).catch(function(){ var e=document.createElement('div'); e.className='review-error'; e.dataset.status='0'; e.textContent='Network error'; sentinel.replaceWith(e); next=null; })
      .finally(function(){ loading=false; });
  }
  new IntersectionObserver(function(entries){ if(started&&entries.some(function(e){return e.isIntersecting;})) load(); }).observe(sentinel);
  document.querySelectorAll('[role=tab]').forEach(function(tab){
    tab.addEventListener('click',function(){
      document.querySelectorAll('[role=tab]').forEach(function(t){ t.setAttribute('aria-selected',String(t===tab)); });
      document.querySelectorAll('[role=tabpanel]').forEach(function(p){ p.hidden = p.id !== 'panel-'+tab.dataset.tab; });
      if(tab.dataset.tab==='reviews'&&!started){ started=true; load(); }
    });
  });
})();
`;

function stars(rating: number): string {
  return "★".repeat(rating) + "☆".repeat(5 - rating);
}

/** Place page, layout 1: tabs with role=tab; reviews load by infinite scroll (20 per page). */
export function layout1Page(place: DemoPlace, fragmentUrl: string, fragmentQuery: string): string {
  const body = `
<header class="place-header">
  <h1 class="place-name">${esc(place.name)}</h1>
  <div class="place-meta">${esc(place.category)} · ${esc(place.city)}</div>
  <div class="place-rating" aria-label="${place.rating} out of 5">★ ${place.rating} · ${place.reviewCount} reviews</div>
  <address class="place-address">${esc(place.address)}</address>
  <dl class="place-histogram">${[5, 4, 3, 2, 1].map((n) => `<dt>${n}★</dt><dd data-stars="${n}">${place.histogram[n - 1]}</dd>`).join("")}</dl>
</header>
<nav class="tabs" role="tablist">
  <button type="button" role="tab" aria-selected="true" data-tab="overview">Overview</button>
  <button type="button" role="tab" aria-selected="false" data-tab="reviews">Reviews (${place.reviewCount})</button>
</nav>
<main>
  <section id="panel-overview" role="tabpanel"><p>${esc(place.name)} is a ${esc(place.category.toLowerCase())} in ${esc(place.city)}.</p></section>
  <section id="panel-reviews" role="tabpanel" hidden data-fragment="${esc(fragmentUrl)}" data-query="${esc(fragmentQuery)}">
    <div class="review-list" id="review-list"></div>
    <div class="review-sentinel" id="review-sentinel">Loading more reviews…</div>
  </section>
</main>`;
  return documentHtml({
    title: `${place.name} · Demo Reviews`,
    body,
    style: STYLE,
    bodyAttrs: `data-layout="1" data-place-id="${esc(place.id)}"`,
    script: SCRIPT,
  });
}

/** Review cards of one page, layout 1. */
export function layout1Cards(reviews: DemoReview[]): string {
  return reviews
    .map(
      (r) => `<article class="review-card" data-review-id="${esc(r.id)}" lang="${r.language}">
  <div class="review-header">${
    r.author === null
      ? `<span class="review-author" data-anonymous="true">Anonymous</span>`
      : `<span class="review-author">${esc(r.author)}</span>`
  }${r.reviewer ? ` <a class="reviewer-profile" href="${esc(r.reviewer.path)}" data-review-count="${r.reviewer.reviewCount}">${r.reviewer.reviewCount} reviews</a>` : ""} <span class="review-rating" role="img" aria-label="${r.rating} out of 5 stars">${stars(r.rating)}</span>
  <time class="review-date" datetime="${r.publishedAt.toISOString()}">${r.publishedAt.toISOString().slice(0, 10)}</time>${
    r.editedAt
      ? ` <span class="review-edited">(edited <time datetime="${r.editedAt.toISOString()}">${r.editedAt.toISOString().slice(0, 10)}</time>)</span>`
      : ""
  }</div>
  ${
    r.text === null
      ? ""
      : r.translation
        ? `<p class="review-text" lang="${r.translation.language}" data-translated="true">${esc(r.translation.text)}</p>
  <details class="review-original"><summary>Show original</summary><p lang="${r.language}">${esc(r.text)}</p></details>`
        : `<p class="review-text" lang="${r.language}">${esc(r.text)}</p>`
  }
  ${r.photos.length ? `<div class="review-photos">${r.photos.map((src, n) => `<a class="review-photo" href="${esc(src)}">Photo ${n + 1}</a>`).join(" ")}</div>` : ""}
  <span class="review-helpful" data-count="${r.helpful}">${r.helpful} found this helpful</span>
  ${r.ownerReply === null ? "" : `<div class="owner-reply"><strong>Response from the owner</strong>${r.ownerReplyAt ? ` <time class="reply-date" datetime="${r.ownerReplyAt.toISOString()}">${r.ownerReplyAt.toISOString().slice(0, 10)}</time>` : ""}<p>${esc(r.ownerReply)}</p></div>`}
</article>`,
    )
    .join("\n");
}
