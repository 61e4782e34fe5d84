import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { pushEndpoints, type PushSubscriptionBody } from "@taskmint/shared";
import { ApiError, call, errorMessage } from "../../lib/api.ts";
import { useMe } from "../../lib/auth.ts";
import { activeServiceWorkerRegistration } from "../../lib/pwa.ts";
import { alertsQueries } from "./queries.ts";

/**
 * Phone notifications on this device: the browser's Push API through the app's service worker
 * (lib/pwa.ts), the subscription handed to the server, which pushes to it (issue 36).
 */
export type PushDeviceState = "unsupported" | "blocked" | "off" | "on";

/** Whether this browser has what a push needs: the Push API, notifications, service workers. */
export const pushSupported = () =>
  typeof window !== "undefined" &&
  "PushManager" in window &&
  "Notification" in window &&
  "serviceWorker" in navigator;

/**
 * Who turned pushes on here, and for which subscription: the browser keeps one subscription
 * per app, so another user signed in on this device sees the switch off.
 */
const OWNER_KEY = "taskmint.push-owner";
const ownerMark = (userId: string, subscription: PushSubscription) => `${userId} ${subscription.endpoint}`;

/** The permission was refused, now or before: only the browser's settings can change that. */
class PushBlockedError extends Error {
  constructor() {
    super("Blocked in your browser settings");
  }
}

const base64url = (buffer: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(buffer)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

const bodyOf = (subscription: PushSubscription): PushSubscriptionBody => {
  const json = subscription.toJSON();
  return {
    endpoint: subscription.endpoint,
    expirationTime: json.expirationTime ?? null,
    keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" },
  };
};

async function registration(): Promise<ServiceWorkerRegistration> {
  const active = pushSupported() ? await activeServiceWorkerRegistration() : null;
  if (!active) throw new Error("This browser cannot show phone notifications for TaskMint");
  return active;
}

/** This device's state for the user; a subscription they made is handed to the server again (signing out removed it there). */
async function readState(userId: string): Promise<PushDeviceState> {
  if (!pushSupported()) return "unsupported";
  if (Notification.permission === "denied") return "blocked";
  const active = await activeServiceWorkerRegistration();
  if (!active) return "unsupported";
  const subscription = await active.pushManager.getSubscription();
  if (
    Notification.permission !== "granted" ||
    !subscription ||
    localStorage.getItem(OWNER_KEY) !== ownerMark(userId, subscription)
  )
    return "off";
  await call(pushEndpoints.createPushSubscription, { body: bodyOf(subscription) });
  return "on";
}

async function subscribe(userId: string) {
  if ((await Notification.requestPermission()) !== "granted") throw new PushBlockedError();
  const { pushManager } = await registration();
  const { key } = await call(pushEndpoints.getPushPublicKey);
  let subscription = await pushManager.getSubscription();
  // A subscription made for another server key (the keys were replaced) would never deliver.
  const madeFor = subscription?.options.applicationServerKey;
  if (subscription && (!madeFor || base64url(madeFor) !== key.replace(/=+$/, ""))) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await call(pushEndpoints.createPushSubscription, { body: bodyOf(subscription) });
  localStorage.setItem(OWNER_KEY, ownerMark(userId, subscription));
}

async function unsubscribe() {
  const subscription = await (await registration()).pushManager.getSubscription();
  if (subscription) {
    await call(pushEndpoints.deletePushSubscription, { body: { endpoint: subscription.endpoint } });
    await subscription.unsubscribe();
  }
  localStorage.removeItem(OWNER_KEY);
}

/** Why turning pushes on or off failed, in the user's words. */
export function pushFailure(error: unknown): string {
  if (error instanceof PushBlockedError) return error.message;
  if (error instanceof ApiError) return errorMessage(error, "Could not reach the server, try again");
  if (error instanceof DOMException)
    return "The browser could not reach its notification service. Try again later.";
  return error instanceof Error ? error.message : "Could not change phone notifications, try again";
}

/** This device's phone notifications for the signed-in user: the state, and turning them on or off. */
export function usePushDevice() {
  const { data: user } = useMe();
  const client = useQueryClient();
  const userId = user?.id ?? "";
  const queryKey = [...alertsQueries.all, "push-device", userId];
  const device = useQuery({
    queryKey,
    queryFn: () => readState(userId),
    enabled: userId !== "",
    // Read once per page: reading hands the subscription to the server again.
    staleTime: Infinity,
    retry: false,
  });
  const settle = () => client.invalidateQueries({ queryKey });
  const turnOn = useMutation({ mutationFn: () => subscribe(userId), onSettled: settle });
  const turnOff = useMutation({ mutationFn: unsubscribe, onSettled: settle });
  return {
    /** Undefined while it is read. */
    state: pushSupported() ? device.data : ("unsupported" as const),
    readError: device.error,
    turnOn,
    turnOff,
  };
}
