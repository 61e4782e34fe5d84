import { z } from "zod";
import { idParamsSchema } from "../common.ts";
import { defineEndpoint } from "../endpoint.ts";
import { activeSessionSchema } from "../security.ts";

/** The signed-in user's sessions. */
export const sessionsEndpoints = {
  listMySessions: defineEndpoint({
    method: "GET",
    path: "/api/me/sessions",
    operationId: "listMySessions",
    access: "user",
    tags: ["account"],
    summary: "Your signed-in sessions, most recently used first (at most 50); `current` is this one",
    response: { 200: z.array(activeSessionSchema) },
  }),
  endMySession: defineEndpoint({
    method: "DELETE",
    path: "/api/me/sessions/:id",
    operationId: "endMySession",
    access: "user",
    tags: ["account"],
    summary: "Sign out one of your sessions (this one too); its live notifications end",
    params: idParamsSchema("Unknown session"),
    response: { 204: z.null() },
  }),
};
