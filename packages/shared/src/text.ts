import { z } from "zod";

// The rules every piece of text a person sends must pass, written once: PostgreSQL refuses
// NUL in text, a lone UTF-16 surrogate is not a character at all, and limits are in
// characters as people count them, not in UTF-16 code units.

const NUL = "\u0000";
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Characters as a person counts them (a code point each, so an emoji counts once). */
export const characterCount = (value: string) => [...value].length;

/** The problem with a text's characters, or null when every character is storable. */
export function unstorableCharacters(value: string): string | null {
  if (value.includes(NUL)) return "must not contain NUL characters";
  if (LONE_SURROGATE.test(value)) return "must not contain broken characters";
  return null;
}

interface TextOptions {
  /** Fewest characters after trimming; 1 makes the field required. */
  min?: number;
  max: number;
  /** Passwords keep their spaces. */
  trim?: boolean;
  /** The label names several things ("Task details"): "are required". */
  plural?: boolean;
}

/** A text field with the house rules: storable characters, trimmed, length in characters. */
export function textSchema(label: string, { min = 1, max, trim = true, plural = false }: TextOptions) {
  const required = `${label} ${plural ? "are" : "is"} required`;
  const base = z.string({ error: required });
  return (trim ? base.trim() : base).superRefine((value, ctx) => {
    const problem = unstorableCharacters(value);
    const length = characterCount(value);
    if (problem) ctx.addIssue({ code: "custom", message: `${label} ${problem}` });
    else if (min > 0 && length === 0) ctx.addIssue({ code: "custom", message: required });
    else if (length < min)
      ctx.addIssue({ code: "custom", message: `${label} must be at least ${min} characters` });
    else if (length > max)
      ctx.addIssue({
        code: "custom",
        message: `${label} must be at most ${max.toLocaleString("en-US")} characters`,
      });
  });
}

/** A text the server only looks things up by (a search, a cursor): optional, storable, bounded. */
export function queryTextSchema(label: string, max: number) {
  return textSchema(label, { min: 0, max }).optional();
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar date as YYYY-MM-DD: 2099-02-30 is refused (JavaScript's Date would roll it into March). */
export function isCalendarDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}
