import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { notFound } from "../../lib/errors.ts";
import { findUpload } from "./service.ts";

export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/uploads/:key",
    {
      schema: {
        tags: ["uploads"],
        summary: "A stored image",
        params: z.object({ key: z.string().regex(/^[0-9a-f-]{36}\.webp$/, "Unknown file") }),
      },
    },
    async (request, reply) => {
      const upload = await findUpload(app.db, request.params.key);
      if (!upload) throw notFound("File");
      // Keys are random and never reused, so the bytes behind one never change.
      return reply
        .header("Cache-Control", "public, max-age=31536000, immutable")
        .type(upload.contentType)
        .send(upload.bytes);
    },
  );
};
