import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";

/** The widths a stored image is also served at (`?w=`), for a page's srcset: a phone's thumbnail, a card, a wide picture. */
export const PICTURE_WIDTHS = [160, 480, 800] as const;

/** Stored images; the answer is the image itself, so no response schema. */
export const uploadsEndpoints = {
  getUpload: defineEndpoint({
    method: "GET",
    path: "/uploads/:key",
    operationId: "getUpload",
    access: "optional",
    tags: ["uploads"],
    summary: "A stored image",
    description:
      "Task images and profile photos: anyone, cached for a year; `?w=` serves one narrower. A submission's screenshots: only its worker, the task's buyer and admins (404 for anyone else, signed out included), cached privately and checked again on each showing (ETag, 304).",
    params: z.object({ key: z.string().regex(/^[0-9a-f-]{36}\.webp$/, "Unknown file") }),
    query: z.object({
      w: z
        .enum(
          PICTURE_WIDTHS.map(String) as [string, ...string[]],
          `Width must be one of ${PICTURE_WIDTHS.join(", ")}`,
        )
        .optional()
        .describe("Served at most this wide (smaller images as they are)"),
    }),
  }),
};
