import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";

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
      "Task images and profile photos: anyone, cached for a year. A submission's screenshots: only its worker, the task's buyer and admins (404 for anyone else, signed out included), cached privately and checked again on each showing (ETag, 304).",
    params: z.object({ key: z.string().regex(/^[0-9a-f-]{36}\.webp$/, "Unknown file") }),
  }),
};
