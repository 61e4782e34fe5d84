import { reservationsEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { route } from "../../plugins/endpoint-route.ts";
import { cancelReservation, listActiveReservations, reserveSlot } from "./service.ts";

export const reservationRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.reserveSlot, async (request) => {
    const reservation = await reserveSlot(app.db, {
      workerId: request.sessionUser.id,
      taskId: request.params.id,
      now: request.now,
    });
    return reservation;
  });

  route(app, endpoints.listMyReservations, (request) =>
    listActiveReservations(app.db, request.sessionUser.id, request.now),
  );

  route(app, endpoints.cancelReservation, (request) =>
    cancelReservation(app.db, {
      workerId: request.sessionUser.id,
      reservationId: request.params.id,
      now: request.now,
    }),
  );
};
