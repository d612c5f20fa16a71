/**
 * Checks the page matrix runs on every page and locale (issue 21, point 10):
 * - layoutProblems: no element overflows its container. Content may only be wider than its box
 *   inside a table's scroll region (`.table-wrap`, which shows a scroll cue) and only when narrow;
 *   at desktop width every table fits. Text cut off by `overflow: hidden` is allowed only where the
 *   element carries the full value as a tooltip (`title`).
 * - rawTextProblems: no text people read is a raw code (a snake_case identifier such as
 *   `allocation_exceeds_100`) or JSON. Literal commands and values people type are shown in
 *   `code`, `pre`, `kbd` and `samp` and are exempt from the snake-case rule, as is the API reference
 *   (the API's own names are its content).
 */
import type { Page } from "@playwright/test";

export async function layoutProblems(page: Page, allowTableScroll: boolean): Promise<string[]> {
  return page.evaluate((allowScroll) => {
    const problems: string[] = [];
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : "";
      const cls =
        typeof el.className === "string" && el.className ? `.${el.className.trim().split(/\s+/).join(".")}` : "";
      const text = (el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 50);
      return `<${el.tagName.toLowerCase()}${id}${cls}> "${text}"`;
    };
    const visible = (el: Element) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      // Charts draw in SVG (checked by their own box); hidden helpers are not seen.
      if (el.closest("svg") && el.tagName.toLowerCase() !== "svg") continue;
      if (el.closest(".visually-hidden, .skip-link, [hidden]") || !visible(el)) continue;
      // A table shown as cards on a phone keeps its header row for screen readers, visually hidden.
      const head = el.closest(".cards-on-phone thead");
      if (head && getComputedStyle(head).position === "absolute") continue;
      const style = getComputedStyle(el);
      const over = el.scrollWidth - el.clientWidth;
      if (over > 1 && el.clientWidth > 0) {
        if (style.overflowX === "hidden" || style.overflowX === "clip") {
          // A form field scrolls its own value under the caret; anything else needs the full value as tooltip.
          if (!el.matches("input, textarea, select") && !el.hasAttribute("title"))
            problems.push(`cuts its content by ${over} px: ${describe(el)}`);
        } else if (style.overflowX === "auto" || style.overflowX === "scroll") {
          if (!allowScroll || !el.matches(".table-wrap"))
            problems.push(`scrolls sideways by ${over} px: ${describe(el)}`);
        }
      }
      // A box that sticks out of its container: the nearest ancestor with a width (recharts anchors its
      // chart in a 0×0 box); one that scrolls or clips is checked above.
      if (style.position === "fixed" || style.position === "absolute") continue;
      let parent = el.parentElement;
      while (parent && parent !== document.body && parent.getBoundingClientRect().width === 0)
        parent = parent.parentElement;
      if (!parent || parent === document.body || getComputedStyle(parent).overflowX !== "visible") continue;
      const r = el.getBoundingClientRect();
      const p = parent.getBoundingClientRect();
      if (r.width > 0 && r.right > p.right + 1.5)
        problems.push(`sticks out of its container by ${Math.round(r.right - p.right)} px: ${describe(el)}`);
    }
    return [...new Set(problems)].slice(0, 20);
  }, allowTableScroll);
}

export async function rawTextProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const snake = /(?:^|[^\w/.:@-])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![\w/.@-])/;
    const json = /[{[]\s*"[^"\n]{1,60}"\s*:|^\s*[{[]\s*[{["]/;
    // The API reference shows the API's own names and example bodies: they are its content.
    const exempt = "script, style, noscript, template, .visually-hidden, .api-reference";
    // Commands and values people type or copy may hold snake_case names, never JSON.
    const literal = "code, pre, kbd, samp";
    const problems: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent ?? "";
      if (!parent || !text.trim() || parent.closest(exempt) || parent.getClientRects().length === 0) continue;
      const code = parent.closest(literal) ? undefined : snake.exec(text)?.[1];
      if (code) problems.push(`raw code "${code}" in <${parent.tagName.toLowerCase()}>: "${text.trim().slice(0, 80)}"`);
      else if (json.test(text))
        problems.push(`JSON in <${parent.tagName.toLowerCase()}>: "${text.trim().slice(0, 80)}"`);
    }
    return [...new Set(problems)].slice(0, 20);
  });
}

/**
 * The header budget (issue 44, point 6): on a phone (375 × 800) the header and navigation above a
 * page's title (the banner and every navigation landmark before the h1, e.g. a section's menu) take at
 * most a quarter of the first screen, and the title starts on the first screen. Notices between the
 * navigation and the title (an unconfirmed address) are the page's content, not its navigation.
 * Returns the problem, or null.
 */
export async function headerBudgetProblem(page: Page, share = 0.25): Promise<string | null> {
  return page.evaluate((limit) => {
    const h1 = document.querySelector("h1");
    if (!h1) return "no h1";
    const screen = window.innerHeight;
    const budget = screen * limit;
    let bottom = 0;
    for (const el of Array.from(document.querySelectorAll("header, nav, [role=banner], [role=navigation]"))) {
      // Only what comes before the title, and not the navigation inside the header (counted with it).
      if (el.contains(h1) || !(el.compareDocumentPosition(h1) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
      if (el.getClientRects().length === 0) continue;
      bottom = Math.max(bottom, el.getBoundingClientRect().bottom + window.scrollY);
    }
    const top = h1.getBoundingClientRect().top + window.scrollY;
    if (bottom > budget)
      return `header and navigation end ${Math.round(bottom)} px down, more than ${Math.round(budget)} px (${limit * 100} % of ${screen} px)`;
    if (top >= screen) return `the title starts ${Math.round(top)} px down, below the first screen`;
    return null;
  }, share);
}

/**
 * Cells of the tables on the page (or of those matching `tables`) that are not fully on screen
 * horizontally without scrolling: each is described by its column's name (data-label) or index.
 */
export async function offscreenCells(page: Page, tables = "table"): Promise<string[]> {
  return page.evaluate((selector) => {
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    for (const table of Array.from(document.querySelectorAll<HTMLTableElement>(selector))) {
      if (table.getClientRects().length === 0) continue;
      for (const row of Array.from(table.tBodies).flatMap((b) => Array.from(b.rows))) {
        Array.from(row.cells).forEach((cell, i) => {
          const r = cell.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) return;
          if (r.left < -1 || r.right > width + 1)
            problems.push(
              `column ${cell.getAttribute("data-label") || i + 1} at ${Math.round(r.left)}–${Math.round(r.right)} px`,
            );
        });
      }
    }
    return [...new Set(problems)].slice(0, 20);
  }, tables);
}
