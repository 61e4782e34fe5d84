import { z } from "zod";
import { idParamsSchema } from "../common.ts";
import { defineEndpoint } from "../endpoint.ts";
import {
  createSavedSearchSchema,
  MAX_SAVED_SEARCHES,
  pushEndpointSchema,
  pushPublicKeySchema,
  pushSubscriptionCreatedSchema,
  pushSubscriptionSchema,
  quietHoursSchema,
  SAVED_SEARCH_FOLD_MINUTES,
  savedSearchListSchema,
  savedSearchSchema,
  updateSavedSearchSchema,
} from "../phone.ts";

/** The worker's phone (issue 36): saved searches and their alerts. */
export const savedSearchesEndpoints = {
  createSavedSearch: defineEndpoint({
    method: "POST",
    path: "/api/me/saved-searches",
    operationId: "createSavedSearch",
    access: "worker",
    tags: ["phone"],
    summary: "Save a search and choose how to hear of its new matches",
    description: `A task posted later that matches gives one notification per search (kind saved_search_match); matches within ${SAVED_SEARCH_FOLD_MINUTES} minutes fold into one. At most ${MAX_SAVED_SEARCHES} searches (then 409 LIMIT_REACHED).`,
    body: createSavedSearchSchema,
    response: { 201: savedSearchSchema },
    errors: [409],
  }),
  listSavedSearches: defineEndpoint({
    method: "GET",
    path: "/api/me/saved-searches",
    operationId: "listSavedSearches",
    access: "worker",
    tags: ["phone"],
    summary: "Your saved searches, newest first, each with its new matches since you last looked",
    description: `At most ${MAX_SAVED_SEARCHES}, so the list is not paged.`,
    response: { 200: savedSearchListSchema },
  }),
  updateSavedSearch: defineEndpoint({
    method: "PATCH",
    path: "/api/me/saved-searches/:id",
    operationId: "updateSavedSearch",
    access: "worker",
    tags: ["phone"],
    summary: "Rename a saved search or change how you hear of it",
    params: idParamsSchema("Unknown saved search"),
    body: updateSavedSearchSchema,
    response: { 200: savedSearchSchema },
  }),
  markSavedSearchSeen: defineEndpoint({
    method: "POST",
    path: "/api/me/saved-searches/:id/seen",
    operationId: "markSavedSearchSeen",
    access: "worker",
    tags: ["phone"],
    summary: "You looked at a saved search's results: its new matches count from now",
    params: idParamsSchema("Unknown saved search"),
    response: { 200: savedSearchSchema },
  }),
  deleteSavedSearch: defineEndpoint({
    method: "DELETE",
    path: "/api/me/saved-searches/:id",
    operationId: "deleteSavedSearch",
    access: "worker",
    tags: ["phone"],
    summary: "Remove a saved search; it alerts no more",
    params: idParamsSchema("Unknown saved search"),
    response: { 204: z.null() },
  }),
};

/** Web Push to the user's devices, and the hours it keeps quiet (issue 36). */
export const pushEndpoints = {
  getPushPublicKey: defineEndpoint({
    method: "GET",
    path: "/api/push/public-key",
    operationId: "getPushPublicKey",
    access: "user",
    tags: ["phone"],
    summary: "The server's VAPID public key (base64url), for PushManager.subscribe",
    response: { 200: pushPublicKeySchema },
  }),
  createPushSubscription: defineEndpoint({
    method: "POST",
    path: "/api/me/push-subscriptions",
    operationId: "createPushSubscription",
    access: "user",
    tags: ["phone"],
    summary:
      "Receive pushes on this device (a PushSubscription's JSON); again for the same endpoint renews it",
    description:
      "The endpoint must be https (a loopback address is allowed outside production). Signing out removes the session's device; a push service answering 404 or 410 removes it too.",
    body: pushSubscriptionSchema,
    response: { 201: pushSubscriptionCreatedSchema },
  }),
  deletePushSubscription: defineEndpoint({
    method: "DELETE",
    path: "/api/me/push-subscriptions",
    operationId: "deletePushSubscription",
    access: "user",
    tags: ["phone"],
    summary: "Stop pushes to a device",
    body: pushEndpointSchema,
    response: { 204: z.null() },
  }),
  getQuietHours: defineEndpoint({
    method: "GET",
    path: "/api/me/quiet-hours",
    operationId: "getQuietHours",
    access: "user",
    tags: ["phone"],
    summary: "The hours in which no push is sent (the bell and mail still come)",
    response: { 200: quietHoursSchema },
  }),
  updateQuietHours: defineEndpoint({
    method: "PUT",
    path: "/api/me/quiet-hours",
    operationId: "updateQuietHours",
    access: "user",
    tags: ["phone"],
    summary: "Set the quiet hours, in your time zone",
    body: quietHoursSchema,
    response: { 200: quietHoursSchema },
  }),
};
