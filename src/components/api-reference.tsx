"use client";

import { useEffect, useRef, useState } from "react";
import { SWAGGER_TEXT, type SwaggerTextKey } from "./api-reference-text";

// Swagger UI (swagger-ui-dist, a pinned dependency) rendered from our own origin: its script and
// stylesheet come from /api/docs/<file> (src/app/api/docs/[file]/route.ts), the document from
// /api/openapi.json, so the page needs no other origin and no change to the Content-Security-Policy
// (the script is inserted by the page's own nonce-trusted code: 'strict-dynamic').

type SwaggerUIBundle = (options: Record<string, unknown>) => unknown;
type CreateElement = typeof import("react").createElement;
/** The parts of Swagger UI's plugin system this page uses (immutable.js maps for the spec's info). */
interface SwaggerSystem {
  React: { createElement: CreateElement };
}
interface InfoProps {
  specSelectors: { info: () => { count: () => number; get: (key: string) => unknown } | undefined };
  getComponent: (name: string, container?: boolean) => import("react").ComponentType<{ source: string }>;
}

/**
 * Swagger UI titles the spec with an <h1>; on this page the one <h1> is the page's own, so the spec's
 * title and description are drawn under an <h2> instead (its InfoContainer replaced).
 */
function infoUnderH2(system: SwaggerSystem) {
  const h = system.React.createElement;
  return {
    components: {
      InfoContainer: ({ specSelectors, getComponent }: InfoProps) => {
        const info = specSelectors.info();
        if (!info?.count()) return null;
        const Markdown = getComponent("Markdown", true);
        return h(
          "div",
          { className: "info" },
          h(
            "h2",
            { className: "title" },
            String(info.get("title") ?? ""),
            " ",
            h("small", null, h("pre", { className: "version" }, String(info.get("version") ?? ""))),
          ),
          h("div", { className: "description" }, h(Markdown, { source: String(info.get("description") ?? "") })),
        );
      },
    },
  };
}
declare global {
  interface Window {
    SwaggerUIBundle?: SwaggerUIBundle;
  }
}

/** Replaces Swagger UI's own words under `root` by their translations, now and whenever it re-renders. */
function translateSwagger(root: HTMLElement, labels: Readonly<Record<SwaggerTextKey, string>>): () => void {
  const byText = new Map<string, string>();
  for (const [key, english] of Object.entries(SWAGGER_TEXT)) {
    const local = labels[key as SwaggerTextKey];
    if (local && local !== english) byText.set(english, local);
  }
  if (byText.size === 0) return () => {};
  const translate = (node: Node) => {
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const value = text.nodeValue ?? "";
      const local = byText.get(value.trim());
      // Code, paths and descriptions sit in <code>, <pre> and markdown; only the interface's labels are plain text.
      if (local && !text.parentElement?.closest("code, pre, .markdown, .renderedMarkdown, .opblock-summary-path"))
        text.nodeValue = value.replace(value.trim(), local);
    }
  };
  translate(root);
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "characterData") translate(r.target.parentNode ?? r.target);
      else r.addedNodes.forEach(translate);
    }
  });
  observer.observe(root, { subtree: true, childList: true, characterData: true });
  return () => observer.disconnect();
}

const SCRIPT = "/api/docs/swagger-ui-bundle.js";
const STYLESHEET = "/api/docs/swagger-ui.css";

/** Loads a script once per page; resolves when it has run. */
function loadScript(src: string): Promise<void> {
  const existing = document.querySelector<HTMLScriptElement>(`script[src="${src}"]`);
  if (existing && window.SwaggerUIBundle) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = existing ?? document.createElement("script");
    script.addEventListener("load", () => resolve(), { once: true });
    script.addEventListener("error", () => reject(new Error(`could not load ${src}`)), { once: true });
    if (!existing) {
      script.src = src;
      script.async = true;
      document.body.appendChild(script);
    }
  });
}

/** Swagger UI on /api/openapi.json in the page's language, with a visible loading and failure state. */
export function ApiReference({
  loading,
  failed,
  labels,
}: {
  loading: string;
  failed: string;
  labels: Readonly<Record<SwaggerTextKey, string>>;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");

  useEffect(() => {
    let cancelled = false;
    const stopTranslating = host.current ? translateSwagger(host.current, labels) : () => {};
    if (!document.querySelector(`link[href="${STYLESHEET}"]`)) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = STYLESHEET;
      document.head.appendChild(link);
    }
    loadScript(SCRIPT)
      .then(() => {
        if (cancelled || !host.current || !window.SwaggerUIBundle) return;
        window.SwaggerUIBundle({
          url: "/api/openapi.json",
          domNode: host.current,
          layout: "BaseLayout",
          // No badge from validator.swagger.io, no ?url= or ?configUrl= read from the address bar.
          validatorUrl: null,
          queryConfigEnabled: false,
          deepLinking: false,
          docExpansion: "list",
          defaultModelsExpandDepth: -1,
          plugins: [infoUnderH2],
          onComplete: () => {
            // Its server picker has a caption but no label.
            host.current?.querySelector("select#servers")?.setAttribute("aria-label", labels.servers);
            if (!cancelled) setState("ready");
          },
        });
      })
      .catch(() => !cancelled && setState("failed"));
    return () => {
      cancelled = true;
      stopTranslating();
    };
  }, [labels]);

  return (
    <div className="stack-sm">
      {state === "loading" ? (
        <p className="muted" role="status">
          {loading}
        </p>
      ) : null}
      {state === "failed" ? (
        <p className="alert" role="alert">
          {failed}
        </p>
      ) : null}
      <div ref={host} className="api-reference" />
    </div>
  );
}
