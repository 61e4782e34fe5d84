import { bonusesEndpoints as endpoints, IDEMPOTENCY_KEY_HEADER } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { route } from "../../plugins/endpoint-route.ts";
import { sendBonus } from "./service.ts";

export const bonusRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.sendBonus, async (request) => {
    const bonus = await sendBonus(app.db, {
      buyerId: request.sessionUser.id,
      idempotencyKey: request.headers[IDEMPOTENCY_KEY_HEADER],
      request: request.body,
      now: request.now,
    });
    return bonus;
  });
};
