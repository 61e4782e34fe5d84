import http from "node:http";
import https from "node:https";
import { Webhook } from "standardwebhooks";
import { guardedLookup } from "../../lib/outbound-urls.ts";

/** How long an attempt may take, connecting and answering, before it counts as failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of an answer is read; the rest is dropped (only the status matters). */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface AttemptResult {
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * One signed POST (Standard Webhooks): `webhook-id` the event's id, `webhook-timestamp` the
 * sending time, `webhook-signature` v1 HMAC-SHA256 of "id.timestamp.body" with the endpoint's
 * secret. Redirects are not followed (a 3xx is a failed attempt); never throws.
 */
export function sendSigned(input: {
  url: string;
  secret: string;
  eventId: string;
  body: string;
  production: boolean;
}): Promise<AttemptResult> {
  const started = performance.now();
  // Real time, not the app's clock: receivers check the timestamp against theirs (replay window).
  const sentAt = new Date();
  const headers = {
    "content-type": "application/json",
    "user-agent": "TaskMint-Webhooks/1",
    "webhook-id": input.eventId,
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    "webhook-signature": new Webhook(input.secret).sign(input.eventId, sentAt, input.body),
  };
  const url = new URL(input.url);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (responseStatus: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      resolve({ responseStatus, error, durationMs: Math.round(performance.now() - started) });
    };
    const request = client.request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": Buffer.byteLength(input.body) },
        timeout: DELIVERY_TIMEOUT_MS,
        lookup: guardedLookup(input.production),
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        response.on("close", () =>
          finish(status, status >= 300 && status < 400 ? "redirect not followed" : null),
        );
        response.on("error", () => finish(status, null));
      },
    );
    const deadline = setTimeout(() => request.destroy(new Error("timed out")), DELIVERY_TIMEOUT_MS);
    request.on("timeout", () => request.destroy(new Error("timed out")));
    request.on("error", (error) => finish(null, error.message.slice(0, 200)));
    request.on("close", () => clearTimeout(deadline));
    request.end(input.body);
  });
}
