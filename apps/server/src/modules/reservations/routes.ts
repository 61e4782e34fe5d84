import { reservationsEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../plugins/auth-guard.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { cancelReservation, listActiveReservations, reserveSlot } from "./service.ts";

export const reservationRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.reserveSlot, async (request) => {
    const reservation = await reserveSlot(app.db, {
      workerId: (await currentUser(request)).id,
      taskId: request.params.id,
      now: app.clock(),
    });
    return reservation;
  });

  route(app, endpoints.listMyReservations, async (request) =>
    listActiveReservations(app.db, (await currentUser(request)).id, app.clock()),
  );

  route(app, endpoints.cancelReservation, async (request) =>
    cancelReservation(app.db, {
      workerId: (await currentUser(request)).id,
      reservationId: request.params.id,
      now: app.clock(),
    }),
  );
};
