import type { Endpoint } from "../endpoint.ts";

/** Filled in as the module's routes move to declarations (issue 33). */
export const usersEndpoints: Record<string, Endpoint> = {};
