import { batchesEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { readForm, uploadedFileName } from "../../lib/multipart.ts";
import { currentUser } from "../../plugins/auth-guard.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { batchResultsCsv, listBatches, postBatch, previewBatch } from "./service.ts";

export const batchRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.createBatch, async (request, reply) => {
    const user = await currentUser(request);
    const { fields, files } = await readForm(request, endpoints.createBatch.form);
    const upload = {
      buyerId: user.id,
      apiKeyId: user.apiKeyId ?? null,
      file: files.file,
      fileName: await uploadedFileName(request, "file"),
      template: fields.template,
      now: app.clock(),
    };
    // Two success answers are declared, so the route names its status itself.
    if (request.query.dry_run === "true") return previewBatch(upload);
    const created = await postBatch(app.db, upload);
    void reply.code(201);
    return created;
  });

  route(app, endpoints.listBatches, async (request) =>
    listBatches(app.db, (await currentUser(request)).id, request.query),
  );

  route(app, endpoints.getBatchResults, async (request, reply) => {
    const csv = await batchResultsCsv(app.db, {
      buyerId: (await currentUser(request)).id,
      batchId: request.params.id,
    });
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="batch-${request.params.id}.csv"`)
      .send(csv);
  });
};
