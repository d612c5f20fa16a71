/** Escapes text for HTML element content and attribute values. */
export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A whole HTML document. */
export function documentHtml(options: {
  title: string;
  body: string;
  style?: string;
  bodyAttrs?: string;
  script?: string;
}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(options.title)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;color:#1d2329;background:#f6f7f9}
a{color:#0b5cad}
main{max-width:760px;margin:0 auto;padding:16px}
${options.style ?? ""}
</style>
</head>
<body ${options.bodyAttrs ?? ""}>
${options.body}
${options.script ? `<script>${options.script}</script>` : ""}
</body>
</html>`;
}

/** The page shown for a refused, missing or failed request. */
export function problemPage(status: number, title: string, detail: string, extra = ""): string {
  return documentHtml({
    title: `${status} ${title}`,
    body: `<main class="problem" data-status="${status}"><h1>${esc(title)}</h1><p>${esc(detail)}</p>${extra}</main>`,
  });
}

/** The captcha wall of a blocked client (403). */
export function captchaPage(): string {
  return problemPage(
    403,
    "Please verify you are a human",
    "Unusual traffic from your network was detected.",
    `<div id="captcha" class="captcha-box"><input type="checkbox" id="captcha-check" disabled> <label for="captcha-check">I'm not a robot</label></div>`,
  );
}

/** Knob query parameters a page passes on to the requests it makes itself. */
export const FORWARDED_KNOBS = ["latency", "status", "layout", "markup", "dates"] as const;
