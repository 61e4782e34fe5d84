import { z } from "zod";
import { MAX_IMAGE_BYTES } from "@taskmint/shared";

/** A file input's files: one image of at most 5 MB (rule R18); `noun` names it in the messages. */
const images = (noun: string, optional: boolean) =>
  z
    .custom<FileList>(
      (value) => value instanceof FileList && (optional || value.length > 0),
      `${noun[0]?.toUpperCase()}${noun.slice(1)} is required`,
    )
    .refine((list) => !list[0] || list[0].type.startsWith("image/"), `The ${noun} must be an image`)
    .refine((list) => (list[0]?.size ?? 0) <= MAX_IMAGE_BYTES, "Images must be at most 5 MB");

export const imageFiles = (noun: string) => images(noun, false);
/** The same, or no file (the input left empty). */
export const optionalImageFiles = (noun: string) => images(noun, true).optional();
