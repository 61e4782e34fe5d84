import { healthSchema, serverConfigSchema } from "../common.ts";
import { defineEndpoint } from "../endpoint.ts";

/** The server's health and the set-up the web app reads. */
export const healthEndpoints = {
  checkHealth: defineEndpoint({
    method: "GET",
    path: "/healthz",
    operationId: "checkHealth",
    access: "public",
    tags: ["operations"],
    summary: "200 when the database answers",
    response: { 200: healthSchema, 503: healthSchema },
  }),
  getConfig: defineEndpoint({
    method: "GET",
    path: "/api/config",
    operationId: "getConfig",
    access: "public",
    tags: ["operations"],
    summary: "What the web app needs to know about this server's set-up",
    response: { 200: serverConfigSchema },
  }),
};
