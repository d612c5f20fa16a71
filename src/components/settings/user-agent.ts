/** Browser and operating system named by a User-Agent header, for the session list; null when neither is recognised. */
export function describeUserAgent(ua: string | null | undefined): { browser: string | null; os: string | null } | null {
  if (!ua) return null;
  const browser = /\bEdg(?:e|A|iOS)?\//.test(ua)
    ? "Edge"
    : /\bOPR\//.test(ua)
      ? "Opera"
      : /\b(?:Firefox|FxiOS)\//.test(ua)
        ? "Firefox"
        : /\b(?:Chrome|Chromium|CriOS|HeadlessChrome)\//.test(ua)
          ? "Chrome"
          : /\bSafari\//.test(ua) && /\bVersion\//.test(ua)
            ? "Safari"
            : null;
  const os = /\b(?:iPhone|iPad|iPod)\b/.test(ua)
    ? "iOS"
    : /\bAndroid\b/.test(ua)
      ? "Android"
      : /\bWindows\b/.test(ua)
        ? "Windows"
        : /\bCrOS\b/.test(ua)
          ? "ChromeOS"
          : /\bMac OS X\b|\bMacintosh\b/.test(ua)
            ? "macOS"
            : /\bLinux\b/.test(ua)
              ? "Linux"
              : null;
  return browser || os ? { browser, os } : null;
}
