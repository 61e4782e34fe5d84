import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";
import { meAnswerSchema, nameSchema, userAnswerSchema } from "../schemas.ts";

/** The signed-in user's own profile. */
export const usersEndpoints = {
  getMe: defineEndpoint({
    method: "GET",
    path: "/api/me",
    operationId: "getMe",
    access: "user",
    tags: ["account"],
    summary: "The signed-in user, and whether this session passed a second factor (admin actions need it)",
    response: { 200: meAnswerSchema },
  }),
  updateMe: defineEndpoint({
    method: "PATCH",
    path: "/api/me",
    operationId: "updateMe",
    access: "user",
    tags: ["account"],
    summary: "Change your name or photo",
    description: "multipart/form-data with the optional field name and the optional file photo.",
    form: { fields: z.object({ name: nameSchema.optional() }), files: { photo: { required: false } } },
    response: { 200: userAnswerSchema },
    errors: [413, 415],
  }),
};
