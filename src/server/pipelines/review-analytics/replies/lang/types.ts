import type { Category } from "../../taxonomy";

/**
 * How reply drafts are written in one language (docs/pipelines.md, "Reply drafts"): the sentences of a
 * reply and the names of the categories as they sit inside them. What is said is decided in compose.ts.
 */
export interface ReplyLanguage {
  /** "Dear Anna," / "Hola, Anna:"; no name: a greeting without one. */
  greeting(name: string | null): string;
  /** The thanks that opens the body; `critical`: the review reports a health-and-safety problem. */
  thanks(critical: boolean): string;
  /** The sentence specific to a health-and-safety case. */
  critical: string;
  /** An apology naming the categories complained about (already joined with `list`). */
  complained(categories: string): string;
  /** An apology for a low rating that names no category. */
  lowRating: string;
  /** A thanks for what was praised (categories joined with `list`). */
  praised(categories: string): string;
  /** The closing sentence; `critical` as in `thanks`. */
  closing(critical: boolean): string;
  signature: string;
  /** A category inside the sentences above ("the food", "la comida", "Essen"). */
  category(code: Category): string;
  /** Joins names the language's way ("a, b and c"). */
  list(items: readonly string[]): string;
  /** German names several categories with a plural frame ("zu den Themen …"); others pass the list through. */
  frame?(items: readonly string[], joined: string, use: "complained" | "praised"): string;
}

/** "a", "a and b", "a, b and c" with the language's conjunction. */
export const joinWith =
  (and: string) =>
  (items: readonly string[]): string =>
    items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} ${and} ${items[items.length - 1]}`;
