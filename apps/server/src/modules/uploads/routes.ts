import { uploadsEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { notFound } from "../../lib/errors.ts";
import { sessionUser } from "../../plugins/auth-guard.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { findUpload, mayFetch, narrowedImage } from "./service.ts";

export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.getUpload, async (request, reply) => {
    const { key } = request.params;
    const width = request.query.w ? Number(request.query.w) : null;
    const upload = await findUpload(app.db, key);
    const user = upload && upload.viewers !== "anyone" ? await sessionUser(request) : null;
    // Not "forbidden": the answer does not tell a stranger that the address exists.
    if (!upload || !mayFetch(upload.viewers, user)) throw notFound("File");
    reply.type(upload.contentType);
    const bytes = () => (width ? narrowedImage(upload.bytes, width) : upload.bytes);
    // Keys are random and never reused, so the bytes behind one never change.
    if (upload.viewers === "anyone")
      return reply.header("Cache-Control", "public, max-age=31536000, immutable").send(await bytes());
    // A screenshot stays in this browser only, and is asked for again each time it is shown, so a
    // copy left behind after signing out is not shown again; an unchanged copy costs a 304.
    const etag = `"${key}${width ? `-${width}` : ""}"`;
    reply.header("Cache-Control", "private, no-cache").header("ETag", etag);
    if (request.headers["if-none-match"] === etag) return reply.code(304).send();
    return reply.send(await bytes());
  });
};
