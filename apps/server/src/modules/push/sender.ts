import http from "node:http";
import https from "node:https";
import webPush from "web-push";
import { checkOutboundUrl, guardedLookup } from "../../lib/outbound-urls.ts";
import type { Vapid } from "./vapid.ts";

/** How long a push service may take to connect and answer before the attempt counts as failed. */
const SEND_TIMEOUT_MS = 10_000;
/** A push undelivered after this long (the phone off) is dropped by the push service: stale news. */
export const PUSH_TTL_SECONDS = 3_600;
/** A push service's Topic header: at most 32 characters of the URL-safe base64 alphabet (RFC 8030). */
const TOPIC = /^[A-Za-z0-9_-]{1,32}$/;

export interface Device {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * What became of one push: delivered; `gone` (404/410: the browser dropped the subscription);
 * `retry` (429, 5xx, no answer: the push service may take it later); `refused` (any other
 * answer, or a device no push can be encrypted for: trying again would change nothing).
 */
export type SendOutcome = { kind: "sent" } | { kind: "gone" | "retry" | "refused"; reason: string };

/**
 * Encrypts (aes128gcm, RFC 8291) and signs (VAPID, RFC 8292) `body` for the device with the
 * web-push library, and posts it ourselves: the library's own request is https only, and ours
 * connects only where outbound requests may go (lib/outbound-urls.ts) and follows no redirect.
 * Never throws.
 */
export async function sendPush(input: {
  device: Device;
  body: string;
  topic: string;
  vapid: Vapid;
  production: boolean;
}): Promise<SendOutcome> {
  const { device, vapid, production } = input;
  let details: webPush.RequestDetails;
  try {
    checkOutboundUrl(device.endpoint, production, "endpoint");
    details = webPush.generateRequestDetails(
      { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
      input.body,
      {
        vapidDetails: vapid,
        TTL: PUSH_TTL_SECONDS,
        urgency: "high",
        ...(TOPIC.test(input.topic) ? { topic: input.topic } : {}),
      },
    );
  } catch (error) {
    return { kind: "refused", reason: error instanceof Error ? error.message : String(error) };
  }
  const url = new URL(details.endpoint);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const request = client.request(
      url,
      {
        method: details.method,
        headers: details.headers,
        timeout: SEND_TIMEOUT_MS,
        lookup: guardedLookup(production),
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        // Only the status matters: the answer is read and dropped.
        response.resume();
        response.on("end", () => {
          if (status >= 200 && status < 300) finish({ kind: "sent" });
          else if (status === 404 || status === 410) finish({ kind: "gone", reason: `answered ${status}` });
          else if (status === 429 || status >= 500) finish({ kind: "retry", reason: `answered ${status}` });
          else finish({ kind: "refused", reason: `answered ${status}` });
        });
        response.on("error", (error) => finish({ kind: "retry", reason: error.message }));
      },
    );
    request.on("timeout", () => request.destroy(new Error("the push service did not answer in time")));
    request.on("error", (error) => finish({ kind: "retry", reason: error.message }));
    request.end(details.body ?? undefined);
  });
}
