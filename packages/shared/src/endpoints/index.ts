import type { Endpoint } from "../endpoint.ts";
import { trustEndpoints } from "./trust.ts";

export { trustEndpoints };

/** Every declared endpoint: the OpenAPI document is completed from these. */
export const allEndpoints: readonly Endpoint[] = [...Object.values(trustEndpoints)];
