import type { FastifyRequest } from "fastify";
import { MAX_IMAGE_BYTES } from "@taskmint/shared";
import { AppError } from "./errors.ts";

export interface MultipartForm {
  fields: Record<string, string>;
  /** Every non-empty file sent under each field name, in the order sent. */
  files: Record<string, Buffer[]>;
}

/** The most files one form may carry (a submission's three screenshots and a spare). */
const MAX_FILES = 4;

/** The one file of a field that takes one: undefined when none was sent, 400 when several were. */
export function singleFile(form: MultipartForm, name: string): Buffer | undefined {
  const sent = form.files[name] ?? [];
  if (sent.length > 1)
    throw new AppError("VALIDATION", `Send one file as ${name}`, { [name]: "Send one file" });
  return sent[0];
}

/** Reads a whole multipart form into memory; files are capped at the image size limit. */
export async function readMultipart(request: FastifyRequest): Promise<MultipartForm> {
  if (!request.isMultipart()) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send this form as multipart/form-data");
  }
  const form: MultipartForm = { fields: {}, files: {} };
  try {
    for await (const part of request.parts({
      limits: { fileSize: MAX_IMAGE_BYTES, files: MAX_FILES, fields: 20, fieldSize: 20_000 },
    })) {
      if (part.type === "file") {
        const bytes = await part.toBuffer();
        if (bytes.length > 0) form.files[part.fieldname] = [...(form.files[part.fieldname] ?? []), bytes];
      } else if (typeof part.value === "string") {
        form.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    // Everything in this loop reads the client's bytes: a missing boundary, a truncated or
    // garbled body, too many parts. None of it is the server's fault.
    if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE")
      throw new AppError("TOO_LARGE", "Images must be at most 5 MB");
    throw new AppError(
      "VALIDATION",
      "The form could not be read: send it as multipart/form-data with a boundary and every part complete",
    );
  }
  return form;
}
