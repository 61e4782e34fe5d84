import type { ReadableStream } from "node:stream/web";
import { expect } from "vitest";

/** A live /api/notifications/stream read over real HTTP, as a browser's EventSource reads it. */
export interface OpenStream {
  /** Settles when the server ended the response. */
  ended: Promise<void>;
  hasEnded(): boolean;
  /** The messages of the `notification` events received so far. */
  messages(): string[];
  /** Waits until an event with this message arrived; false when `ms` passed first. */
  receives(message: string, ms: number): Promise<boolean>;
  /** Waits until `count` keep-alive comments arrived in all; false when `ms` passed first. */
  receivesHeartbeats(count: number, ms: number): Promise<boolean>;
  close(): void;
}

/** Opens the notification stream of `cookie` on a listening server and waits until it is subscribed. */
export async function openEventStream(base: string, cookie: string): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/notifications/stream`, {
    headers: { cookie, accept: "text/event-stream" },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array> | null)?.getReader();
  if (!reader) throw new Error("no body");
  const decoder = new TextDecoder();
  let text = "";
  let finished = false;
  const waiters = new Set<() => void>();
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        for (const wake of waiters) wake();
      }
    } catch {
      // Aborted by close(): the test ended it, not the server.
    }
    finished = true;
    for (const wake of waiters) wake();
  })();
  const messages = () =>
    [...text.matchAll(/^event: notification\ndata: (.*)$/gm)].map(
      (match) => (JSON.parse(match[1] ?? "{}") as { message: string }).message,
    );
  const heartbeats = () => text.match(/^: keep-alive$/gm)?.length ?? 0;
  const until = (condition: () => boolean, ms: number) =>
    new Promise<boolean>((resolve) => {
      const check = () => {
        if (!condition() && !finished) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(condition());
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        resolve(condition());
      }, ms);
      waiters.add(check);
      check();
    });
  // The server subscribes the stream before it writes its first line.
  if (!(await until(() => text.includes("retry:"), 5_000))) throw new Error("the stream did not open");
  return {
    ended,
    hasEnded: () => finished,
    messages,
    receives: (message, ms) => until(() => messages().includes(message), ms),
    receivesHeartbeats: (count, ms) => until(() => heartbeats() >= count, ms),
    close: () => controller.abort(),
  };
}
