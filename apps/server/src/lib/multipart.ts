import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import { MAX_IMAGE_BYTES, type FormBody } from "@taskmint/shared";
import { fieldMessages } from "../plugins/errors.ts";
import { AppError } from "./errors.ts";

interface MultipartForm {
  fields: Record<string, string>;
  /** Every non-empty file sent under each field name, in the order sent. */
  files: Record<string, Buffer[]>;
  /** The name each field's last file was sent under. */
  fileNames: Record<string, string>;
}

/** The most files one form may carry (a submission's three screenshots and a spare). */
const MAX_FILES = 4;

/** Forms already read: the Idempotency-Key's fingerprint reads a form before its route does. */
const formsRead = new WeakMap<FastifyRequest, Promise<MultipartForm>>();

/**
 * Reads a whole multipart form into memory, once per request; files are capped at the form's
 * limit (the image size limit unless it names another).
 */
export function readMultipart(request: FastifyRequest, form: FormBody): Promise<MultipartForm> {
  let read = formsRead.get(request);
  if (!read) {
    read = readParts(request, form.maxFileBytes ?? MAX_IMAGE_BYTES);
    formsRead.set(request, read);
  }
  return read;
}

async function readParts(request: FastifyRequest, maxFileBytes: number): Promise<MultipartForm> {
  if (!request.isMultipart()) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send this form as multipart/form-data");
  }
  const form: MultipartForm = { fields: {}, files: {}, fileNames: {} };
  try {
    for await (const part of request.parts({
      limits: { fileSize: maxFileBytes, files: MAX_FILES, fields: 20, fieldSize: 20_000 },
    })) {
      if (part.type === "file") {
        const bytes = await part.toBuffer();
        if (bytes.length > 0) form.files[part.fieldname] = [...(form.files[part.fieldname] ?? []), bytes];
        if (part.filename) form.fileNames[part.fieldname] = part.filename.slice(0, 255);
      } else if (typeof part.value === "string") {
        form.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    // Everything in this loop reads the client's bytes: a missing boundary, a truncated or
    // garbled body, too many parts. None of it is the server's fault.
    if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE")
      throw new AppError(
        "TOO_LARGE",
        maxFileBytes === MAX_IMAGE_BYTES
          ? "Images must be at most 5 MB"
          : `Files must be at most ${Math.round(maxFileBytes / (1024 * 1024))} MB`,
      );
    throw new AppError(
      "VALIDATION",
      "The form could not be read: send it as multipart/form-data with a boundary and every part complete",
    );
  }
  return form;
}

/** The name a file of a form already read was sent under (the CSV of a batch), or null. */
export async function uploadedFileName(request: FastifyRequest, field: string): Promise<string | null> {
  const form = await formsRead.get(request);
  return form?.fileNames[field] ?? null;
}

/** A form's files as its declaration takes them: a list, the one file, or the one file if sent. */
type FilesOf<F extends FormBody> = {
  [Name in keyof F["files"]]: F["files"][Name] extends { many: number }
    ? Buffer[]
    : F["files"][Name] extends { required: true }
      ? Buffer
      : Buffer | undefined;
};

/** "task_image" -> "Task image", for the message of a missing file. */
const labelOf = (name: string) => `${name.charAt(0).toUpperCase()}${name.slice(1).replaceAll("_", " ")}`;

/**
 * The one way a route reads a form (decision 032): the multipart body (or, where the endpoint
 * also takes JSON, a JSON body), its text fields checked with the declared schema and its
 * files as declared; every field's and file's problem answered at once as one 400.
 */
export async function readForm<F extends FormBody>(
  request: FastifyRequest,
  form: F,
): Promise<{ fields: z.output<F["fields"]>; files: FilesOf<F> }> {
  const sent: { fields: unknown; files: Record<string, Buffer[]> } =
    form.json && !request.isMultipart()
      ? { fields: request.body, files: {} }
      : await readMultipart(request, form);
  const parsed = form.fields.safeParse(sent.fields);
  const details = parsed.success ? {} : fieldMessages(parsed.error.issues);
  const files: Record<string, Buffer | Buffer[] | undefined> = {};
  for (const [name, { required, many }] of Object.entries(form.files)) {
    const given = sent.files[name] ?? [];
    if (many !== undefined) files[name] = given;
    else if (given.length > 1) details[name] ??= `Send one file as ${name}`;
    else if (required && given.length === 0) details[name] ??= `${labelOf(name)} is required`;
    else files[name] = given[0];
  }
  if (!parsed.success || Object.keys(details).length > 0)
    throw new AppError("VALIDATION", Object.values(details)[0] ?? "Some fields are invalid", details);
  return { fields: parsed.data as z.output<F["fields"]>, files: files as FilesOf<F> };
}
