import { batchesEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { readForm, uploadedFileName } from "../../lib/multipart.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { batchResultsCsv, listBatches, postBatch, previewBatch } from "./service.ts";

export const batchRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.createBatch, async (request, reply) => {
    const { fields, files } = await readForm(request, endpoints.createBatch.form);
    const upload = {
      buyerId: request.sessionUser.id,
      apiKeyId: request.sessionUser.apiKeyId ?? null,
      file: files.file,
      fileName: await uploadedFileName(request, "file"),
      template: fields.template,
      now: request.now,
    };
    // Two success answers are declared, so the route names its status itself.
    if (request.query.dry_run === "true") return previewBatch(upload);
    const created = await postBatch(app.db, upload);
    void reply.code(201);
    return created;
  });

  route(app, endpoints.listBatches, ({ sessionUser, query }) => listBatches(app.db, sessionUser.id, query));

  route(app, endpoints.getBatchResults, async ({ sessionUser, params }, reply) => {
    const csv = await batchResultsCsv(app.db, { buyerId: sessionUser.id, batchId: params.id });
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="batch-${params.id}.csv"`)
      .send(csv);
  });
};
