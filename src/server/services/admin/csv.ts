/** One CSV cell value before formatting. */
export type CsvValue = string | number | boolean | Date | null | undefined;

// Cells a spreadsheet would run as a formula (OWASP "CSV injection"): = + - @, tab and carriage return.
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One RFC 4180 cell: dates as ISO-8601, nothing for null, text that a spreadsheet would read as a
 * formula prefixed with an apostrophe, and quotes around anything holding a comma, quote or line break.
 * Numbers are written as they are (a negative number is not a formula).
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  let text = value instanceof Date ? value.toISOString() : value;
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A CSV document: a header line, then one line per row, CRLF line ends (RFC 4180). */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
