import { z } from "zod";
import { idParamsSchema } from "../common.ts";
import { defineEndpoint } from "../endpoint.ts";
import { reservationSchema } from "../tasks.ts";

const idParams = idParamsSchema("Unknown id");

/** A worker's reservations: holding a task's slot, listing and cancelling them (rule R20). */
export const reservationsEndpoints = {
  reserveSlot: defineEndpoint({
    method: "POST",
    path: "/api/tasks/:id/reservations",
    operationId: "reserveSlot",
    access: "worker",
    tags: ["worker"],
    summary: "Start a task: hold one of its slots for you for its time limit",
    description:
      "Takes an open slot at once (no coins move: they are in the task's escrow). 409 RESERVATION_LIMIT past 3 live reservations, NO_SLOTS_LEFT, TASK_CLOSED, ALREADY_SUBMITTED or CONFLICT (already reserved).",
    params: idParams,
    response: { 201: reservationSchema },
    errors: [409],
  }),
  listMyReservations: defineEndpoint({
    method: "GET",
    path: "/api/worker/reservations",
    operationId: "listMyReservations",
    access: "worker",
    tags: ["worker"],
    summary: "Your live reservations, the soonest to run out first",
    response: { 200: z.array(reservationSchema) },
  }),
  cancelReservation: defineEndpoint({
    method: "DELETE",
    path: "/api/reservations/:id",
    operationId: "cancelReservation",
    access: "worker",
    tags: ["worker"],
    summary: "Cancel your reservation: its slot goes back to the task",
    description: "409 NO_RESERVATION when it has already ended (submitted, cancelled, expired or closed).",
    params: idParams,
    response: { 200: reservationSchema },
    errors: [409],
  }),
};
