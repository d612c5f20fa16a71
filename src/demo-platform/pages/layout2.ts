import type { DemoPlace, DemoReview } from "../generate";
import { PHRASES } from "../phrases";
import { documentHtml, esc } from "./html";

const STYLE = `
.lx-hero{background:#183153;color:#fff;padding:24px}
.lx-title{margin:0 0 4px}
.lx-score{font-size:28px;font-weight:700}
.lx-nav{display:flex;list-style:none;margin:0;padding:0 24px;background:#fff;gap:16px}
.lx-nav a{display:block;padding:12px 0;text-decoration:none}
.lx-nav a.is-active{border-bottom:2px solid #183153}
.rv-list{list-style:none;padding:0}
.rv-item{background:#fff;margin:10px 0;padding:14px;border-left:4px solid #183153}
.rv-stars .star{display:inline-block;width:12px;height:12px;margin-right:2px;background:#ccc;clip-path:polygon(50% 0,61% 35%,98% 35%,68% 57%,79% 91%,50% 70%,21% 91%,32% 57%,2% 35%,39% 35%)}
.rv-stars .star.on{background:#e8a200}
.rv-response{margin:8px 0 0;padding:8px;border-left:2px solid #999;color:#333}
.rv-more{display:block;margin:16px auto;padding:10px 18px}
`;

const SCRIPT = `
(function(){
  var section=document.getElementById('lx-section-reviews'), list=section.querySelector('.rv-list');
  var more=section.querySelector('.rv-more'), next=1, busy=false;
  function load(){
    if(busy||next===null)return; busy=true; more.disabled=true; more.textContent='Loading…';
    var q=new URLSearchParams(section.dataset.query); q.set('page',String(next));
    fetch(section.dataset.fragment+'?'+q.toString()).then(function(res){
      if(!res.ok){ var e=document.createElement('p'); e.className='rv-problem'; e.setAttribute('data-http-status',String(res.status));
        e.textContent='Could not load reviews ('+res.status+')'; more.replaceWith(e); next=null; return; }
      var n=res.headers.get('x-next-page'); return res.text().then(function(html){
        list.insertAdjacentHTML('beforeend',html); next=n?Number(n):null;
        if(next===null){ more.remove(); var d=document.createElement('p'); d.className='rv-done'; d.textContent='All reviews shown'; section.appendChild(d); }
      });
    }).catch(function(){ var e=document.createElement('p'); e.className='rv-problem'; e.setAttribute('data-http-status','0'); e.textContent='Network error'; more.replaceWith(e); next=null; })
      .finally(function(){ busy=false; if(more.isConnected){ more.disabled=false; more.textContent='Show more reviews'; } });
  }
  more.addEventListener('click',load);
  document.querySelectorAll('.lx-nav-link').forEach(function(link){
    link.addEventListener('click',function(ev){
      ev.preventDefault();
      document.querySelectorAll('.lx-nav-link').forEach(function(l){ l.classList.toggle('is-active', l===link); });
      document.querySelectorAll('.lx-section').forEach(function(s){ s.style.display = s.id==='lx-section-'+link.dataset.section ? '' : 'none'; });
      if(link.dataset.section==='reviews'&&list.children.length===0) load();
    });
  });
})();
`;

/** "3 March 2025", "3 de marzo de 2025", "3. März 2025": the date as layout 2 writes it in the review's language. */
export function writtenDate(date: Date, language: keyof typeof PHRASES): string {
  const day = date.getUTCDate();
  const month = PHRASES[language].months[date.getUTCMonth()] ?? "";
  const year = date.getUTCFullYear();
  if (language === "es") return `${day} de ${month} de ${year}`;
  if (language === "de") return `${day}. ${month} ${year}`;
  return `${day} ${month} ${year}`;
}

/** Place page, layout 2: a section menu of links; reviews load with a "Show more" button (10 per page). */
export function layout2Page(place: DemoPlace, fragmentUrl: string, fragmentQuery: string): string {
  const body = `
<div class="lx-hero">
  <h2 class="lx-title">${esc(place.name)}</h2>
  <p class="lx-sub">${esc(place.category)}, ${esc(place.city)}</p>
  <span class="lx-score" title="Average rating">${place.rating}</span>
  <span class="lx-count">${place.reviewCount} ratings</span>
  <p class="lx-where">${esc(place.address)}</p>
  <ul class="lx-bars">${[5, 4, 3, 2, 1].map((n) => `<li data-s="${n}" title="${place.histogram[n - 1]} reviews with ${n} stars"><span class="lx-bar" style="width:${Math.round((100 * place.histogram[n - 1]!) / Math.max(1, place.reviewCount))}%"></span></li>`).join("")}</ul>
</div>
<ul class="lx-nav">
  <li><a href="#info" class="lx-nav-link is-active" data-section="info">About</a></li>
  <li><a href="#reviews" class="lx-nav-link" data-section="reviews">All reviews · ${place.reviewCount}</a></li>
</ul>
<main>
  <div id="lx-section-info" class="lx-section"><p>Welcome to ${esc(place.name)} (${esc(place.city)}).</p></div>
  <div id="lx-section-reviews" class="lx-section" style="display:none" data-fragment="${esc(fragmentUrl)}" data-query="${esc(fragmentQuery)}">
    <ol class="rv-list"></ol>
    <button type="button" class="rv-more">Show more reviews</button>
  </div>
</main>`;
  return documentHtml({
    title: `${place.name} – reviews`,
    body,
    style: STYLE,
    bodyAttrs: `class="lx" data-layout="2"`,
    script: SCRIPT,
  });
}

/** "3 weeks ago", "2 months ago", "1 year ago" for a date older than a week before `now`; null for a recent one. */
export function relativeDate(date: Date, now: Date): string | null {
  const days = Math.floor((now.getTime() - date.getTime()) / 86_400_000);
  if (days < 7) return null;
  const [n, unit] =
    days < 30
      ? [Math.floor(days / 7), "week"]
      : days < 365
        ? [Math.floor(days / 30), "month"]
        : [Math.floor(days / 365), "year"];
  return `${n} ${unit}${n === 1 ? "" : "s"} ago`;
}

/** Review items of one page, layout 2; with `relativeTo`, dates older than a week are written relative to it (no exact value). */
export function layout2Cards(reviews: DemoReview[], relativeTo: Date | null = null): string {
  return reviews
    .map((r) => {
      const stars = Array.from({ length: 5 }, (_, i) => `<i class="star${i < r.rating ? " on" : ""}"></i>`).join("");
      const relative = relativeTo ? relativeDate(r.publishedAt, relativeTo) : null;
      const date = relative
        ? `<span class="rv-date" data-relative="true">${relative}</span>`
        : `<span class="rv-date" data-ts="${Math.floor(r.publishedAt.getTime() / 1000)}">${esc(writtenDate(r.publishedAt, r.language))}</span>`;
      const body =
        r.text === null
          ? ""
          : r.translation
            ? `<div class="rv-body" data-lang="${r.translation.language}" data-machine-translated="1">${esc(r.translation.text)}</div>
  <div class="rv-source" data-lang="${r.language}" hidden>${esc(r.text)}</div>`
            : `<div class="rv-body">${esc(r.text)}</div>`;
      return `<li class="rv-item" data-rid="${esc(r.id)}" data-lang="${r.language}">
  <div class="rv-head">${r.author === null ? `<b class="rv-name rv-name--guest">Guest</b>` : `<b class="rv-name">${esc(r.author)}</b>`}${
    r.reviewer
      ? ` <a class="rv-profile" href="${esc(r.reviewer.path)}" title="${r.reviewer.reviewCount} reviews">profile</a>`
      : ""
  }
  ${date}${r.editedAt ? ` <span class="rv-edited" data-ts="${Math.floor(r.editedAt.getTime() / 1000)}">edited</span>` : ""}</div>
  <div class="rv-stars" title="Rated ${r.rating} out of 5">${stars}</div>
  ${body}
  ${r.photos.length ? `<ul class="rv-photos">${r.photos.map((src) => `<li><a href="${esc(src)}">photo</a></li>`).join("")}</ul>` : ""}
  <button type="button" class="rv-useful" data-votes="${r.helpful}">Useful (${r.helpful})</button>
  ${r.ownerReply === null ? "" : `<blockquote class="rv-response"${r.ownerReplyAt ? ` data-ts="${Math.floor(r.ownerReplyAt.getTime() / 1000)}"` : ""}><cite>Owner's response</cite><p>${esc(r.ownerReply)}</p></blockquote>`}
</li>`;
    })
    .join("\n");
}
