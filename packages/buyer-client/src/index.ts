/**
 * A typed client of the TaskMint API for a buyer's program (issue 35 point 6): openapi-fetch
 * over the types generated from the API description (api.gen.ts), authenticated with an API key.
 * Every path, parameter, body and answer is checked by TypeScript against the server's document.
 */
import createClient, { type Client } from "openapi-fetch";
import type { components, operations, paths } from "./api.gen.ts";

export type { components, operations, paths };
export type BuyerClient = Client<paths>;

/** A client acting as the key's buyer: `Authorization: Bearer tm_...` on every request. */
export function createBuyerClient({
  baseUrl,
  apiKey,
  fetch,
}: {
  /** The server's address, `https://taskmint.example` (no `/api`: the paths carry it). */
  baseUrl: string;
  /** A key from the Developer page, `tm_` and 43 characters. */
  apiKey: string;
  /** A fetch of your own (a test's, a proxy's); the global one by default. */
  fetch?: typeof globalThis.fetch;
}): BuyerClient {
  return createClient<paths>({
    baseUrl,
    headers: { authorization: `Bearer ${apiKey}` },
    ...(fetch ? { fetch } : {}),
  });
}

type FormValue = string | number | boolean | Blob | undefined;

/**
 * A multipart body for openapi-fetch's `bodySerializer`: files (Blobs) as files, arrays as
 * repeated fields, the rest as text; undefined fields are left out.
 */
export function formData(
  body: Record<string, FormValue | FormValue[]>,
  fileNames: Record<string, string> = {},
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item instanceof Blob) form.append(name, item, fileNames[name] ?? name);
      else if (item !== undefined) form.append(name, String(item));
    }
  }
  return form;
}
