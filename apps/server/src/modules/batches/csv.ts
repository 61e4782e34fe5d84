import { parse } from "csv-parse/sync";
import {
  BATCH_COLUMNS,
  createTaskFieldsSchema,
  MAX_BATCH_ROWS,
  type BatchRowError,
  type CreateTaskFields,
} from "@taskmint/shared";
import { AppError } from "../../lib/errors.ts";

// Issue 35 point 5 (decision 036): a batch's CSV read into the fields of POST /api/tasks, each
// row checked with that endpoint's own schema.

/** The longest row (a task's details are at most 5,000 characters, its other fields far less). */
const MAX_RECORD_CHARS = 64 * 1024;
/** The most row errors one answer lists (the count of bad rows is told in the message). */
const MAX_ERRORS = 1_000;

const columns: ReadonlySet<string> = new Set(BATCH_COLUMNS);

export interface ReadRow {
  row: number;
  fields: CreateTaskFields;
}

/** A problem of the file or the template as a whole: 400, with the error on row 0. */
const fileError = (field: string, message: string) =>
  new AppError("VALIDATION", message, { errors: [{ row: 0, field, message }] });

/** The file's text: UTF-8 without NUL bytes (so a spreadsheet's binary file is told apart). */
function textOf(file: Buffer) {
  if (file.includes(0))
    throw fileError("file", "The file is not a CSV text file: save it from your spreadsheet as CSV (UTF-8)");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(file);
  } catch {
    throw fileError("file", "The file is not UTF-8 text: save it from your spreadsheet as CSV (UTF-8)");
  }
}

function recordsOf(text: string): string[][] {
  try {
    const records: string[][] = parse(text, {
      bom: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD_CHARS,
      trim: true,
    });
    return records;
  } catch (error) {
    const message = error instanceof Error ? error.message : "unreadable";
    throw fileError("file", `The CSV could not be read: ${message}`);
  }
}

/** The template's fields: a JSON object of task fields whose values are text or numbers. */
function templateOf(template: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(template);
  } catch {
    throw fileError("template", "The template is not JSON: send an object of task fields");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw fileError("template", "The template must be a JSON object of task fields");
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (!columns.has(name))
      throw fileError(
        "template",
        `The template's field ${name} is not a task field (${BATCH_COLUMNS.join(", ")})`,
      );
    if (typeof value !== "string" && typeof value !== "number")
      throw fileError("template", `The template's field ${name} must be text or a number`);
    fields[name] = String(value);
  }
  return fields;
}

const PLACEHOLDER = /\$\{([^}]*)\}/g;

/** Checks the header: known, unique columns (any names with a template, whose placeholders each name one). */
function checkHeader(header: string[], template: Record<string, string> | null) {
  const seen = new Set<string>();
  for (const name of header) {
    if (!name) throw fileError("file", "The header row has an empty column name");
    if (seen.has(name)) throw fileError("file", `The header row names the column ${name} twice`);
    seen.add(name);
    if (!template && !columns.has(name))
      throw fileError(
        "file",
        `Unknown column ${name}: the first row must name the columns, from ${BATCH_COLUMNS.join(", ")}`,
      );
  }
  for (const [field, text] of Object.entries(template ?? {}))
    for (const [, column] of text.matchAll(PLACEHOLDER))
      if (!seen.has(column ?? ""))
        throw fileError(
          "template",
          `The template's ${field} names \${${column}}, which is not a column of the CSV`,
        );
}

/**
 * Reads a batch: every row's fields checked as POST /api/tasks checks them, plus `extraCheck`
 * (the completion date against today). Answers the good rows and every bad row's problems; a
 * file that is not a readable CSV, a wrong header or template, or more than MAX_BATCH_ROWS rows
 * is a 400 at once.
 */
export function readBatch(
  file: Buffer,
  templateText: string | undefined,
  extraCheck: (fields: CreateTaskFields) => { field: string; message: string } | null,
): { rows: ReadRow[]; errors: BatchRowError[]; count: number } {
  const template = templateText === undefined ? null : templateOf(templateText);
  const [header, ...records] = recordsOf(textOf(file));
  if (!header || records.length === 0)
    throw fileError("file", "The CSV has no rows: send a header row and one row per task");
  if (records.length > MAX_BATCH_ROWS)
    throw fileError(
      "file",
      `A batch holds at most ${MAX_BATCH_ROWS.toLocaleString("en-US")} rows; this file has ${records.length.toLocaleString("en-US")}`,
    );
  checkHeader(header, template);
  const rows: ReadRow[] = [];
  const errors: BatchRowError[] = [];
  records.forEach((record, index) => {
    const row = index + 1;
    const values = Object.fromEntries(header.map((name, at) => [name, record[at] ?? ""]));
    const sent: Record<string, string | undefined> = {};
    for (const name of header) if (columns.has(name) && values[name] !== "") sent[name] = values[name];
    for (const [field, text] of Object.entries(template ?? {}))
      sent[field] = text.replace(PLACEHOLDER, (_, column: string) => values[column] ?? "");
    const parsed = createTaskFieldsSchema.safeParse(sent);
    if (!parsed.success) {
      const fields = new Set<string>();
      for (const issue of parsed.error.issues) {
        const field = issue.path.map(String).join(".") || "row";
        if (fields.has(field)) continue;
        fields.add(field);
        errors.push({ row, field, message: issue.message });
      }
      return;
    }
    const problem = extraCheck(parsed.data);
    if (problem) errors.push({ row, ...problem });
    else rows.push({ row, fields: parsed.data });
  });
  return { rows, errors: errors.slice(0, MAX_ERRORS), count: records.length };
}
