import type http from "node:http";
import { captchaPage, problemPage } from "./pages/html";

export type TSurface = "html" | "json" | "fragment";

/** Writes a JSON answer (never cached). */
export function json(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

/** Writes an HTML answer (never cached). */
export function html(
  res: http.ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...headers });
  res.end(body);
}

const PROBLEMS: Record<number, { code: string; title: string; detail: string }> = {
  400: { code: "bad_request", title: "Bad request", detail: "The request is not valid." },
  403: {
    code: "captcha_required",
    title: "Please verify you are a human",
    detail: "Unusual traffic from your network was detected.",
  },
  404: { code: "not_found", title: "Not found", detail: "There is no such place or page." },
  405: { code: "method_not_allowed", title: "Method not allowed", detail: "This path answers GET only." },
  429: { code: "rate_limited", title: "Too many requests", detail: "Slow down and try again later." },
  500: { code: "internal_error", title: "Something went wrong", detail: "The platform failed to answer." },
  502: { code: "bad_gateway", title: "Bad gateway", detail: "An upstream server failed." },
  503: { code: "unavailable", title: "Service unavailable", detail: "The platform is overloaded, try again later." },
};

/** The error answer of a surface: a JSON error, an HTML page (403 is the captcha wall), or a bare fragment. */
export function problem(
  res: http.ServerResponse,
  surface: TSurface,
  status: number,
  options: { headers?: Record<string, string>; detail?: string; issues?: unknown } = {},
): void {
  const p = PROBLEMS[status] ?? PROBLEMS[500]!;
  const detail = options.detail ?? p.detail;
  if (surface === "json") {
    json(
      res,
      status,
      { error: { code: p.code, message: detail, ...(options.issues ? { issues: options.issues } : {}) } },
      options.headers,
    );
  } else if (surface === "html") {
    html(res, status, status === 403 ? captchaPage() : problemPage(status, p.title, detail), options.headers);
  } else {
    html(res, status, `<div class="problem" data-status="${status}">${p.title}</div>`, options.headers);
  }
}
