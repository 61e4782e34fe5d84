import { once } from "node:events";
import http, { type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { LiveStream } from "./live-stream.ts";

// One stream on a real HTTP server and client, without the app: what its response does after
// the end, and when it fails.

const uncaught: unknown[] = [];
const recordUncaught = (error: unknown) => uncaught.push(error);
beforeAll(() => process.on("uncaughtException", recordUncaught));
afterAll(() => process.off("uncaughtException", recordUncaught));

let server: http.Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  expect(uncaught).toEqual([]);
});

/** Opens a stream for one request; answers it with its response, the client's body and the log. */
async function openStream() {
  const logged: string[] = [];
  const log = pino({ level: "warn" }, { write: (line: string) => logged.push(line) });
  let ends = 0;
  let serve: (opened: { stream: LiveStream; response: ServerResponse }) => void = () => {};
  const opened = new Promise<{ stream: LiveStream; response: ServerResponse }>(
    (resolve) => (serve = resolve),
  );
  const listening = http.createServer((_request, response) => {
    const stream = new LiveStream(response, { userId: "u", sessionId: "s", role: "worker" }, log, () => {
      ends += 1;
    });
    serve({ stream, response });
  });
  server = listening;
  listening.listen(0, "127.0.0.1");
  await once(listening, "listening");
  const { port } = listening.address() as AddressInfo;
  const body = fetch(`http://127.0.0.1:${port}/`).then((answer) => answer.text());
  return { ...(await opened), body, logged, ends: () => ends };
}

it("writes nothing after its end (a notification, a heartbeat), and tells its owner of the end once", async () => {
  const { stream, response, body, ends } = await openStream();
  stream.send("ready", { latest_id: null });
  stream.end();
  expect(ends()).toBe(1);
  stream.send("notification", { message: "too late" });
  stream.heartbeat();
  stream.end();
  expect(await body).toBe('retry: 3000\n\nevent: ready\ndata: {"latest_id":null}\n\n');
  if (!response.closed) await once(response, "close");
  expect(ends()).toBe(1);
});

it("logs an error on its response and ends, instead of ending the process", async () => {
  const { response, body, logged, ends } = await openStream();
  // A write the stream did not make, after the end: the response answers with an 'error' event.
  response.end();
  response.write("late");
  await expect.poll(ends).toBe(1);
  expect(logged.map((line) => JSON.parse(line) as { msg: string; err: { code: string } })).toMatchObject([
    { msg: "a notification stream failed; it ends", err: { code: "ERR_STREAM_WRITE_AFTER_END" } },
  ]);
  expect(await body).toBe("retry: 3000\n\n");
});
