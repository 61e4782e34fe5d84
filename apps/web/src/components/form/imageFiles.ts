import { z } from "zod";
import { MAX_IMAGE_BYTES, MAX_PROOF_IMAGES } from "@taskmint/shared";

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

/** A submission's screenshots: at least `required`, at most MAX_PROOF_IMAGES, each an image of at most 5 MB. */
export const screenshotFiles = (required: number) =>
  z
    .custom<FileList | undefined>((value) => value === undefined || value instanceof FileList)
    .transform((list) => [...(list ?? [])])
    .refine(
      (list) => list.length >= required,
      required === 1 ? "This task asks for a screenshot" : `This task asks for ${required} screenshots`,
    )
    .refine((list) => list.length <= MAX_PROOF_IMAGES, `Send at most ${MAX_PROOF_IMAGES} screenshots`)
    .refine((list) => list.every((file) => file.type.startsWith("image/")), "Screenshots must be images")
    .refine((list) => list.every((file) => file.size <= MAX_IMAGE_BYTES), "Images must be at most 5 MB");
