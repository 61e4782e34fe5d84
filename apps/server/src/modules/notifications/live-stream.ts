import type { ServerResponse } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import type { Role } from "@taskmint/shared";

/** Whose a stream is: the user, and the session and role it was opened under. */
export interface StreamOwner {
  userId: string;
  sessionId: string;
  role: Role;
}

/**
 * One open Server-Sent Events response, and the only code that writes to it. It ends once, on
 * the first of: the server ending it, the client leaving, an error on the response; `onEnd`
 * runs at that moment, before anything else can reach it. After the end every write is
 * dropped: a write to an ended response raises an 'error' event, which unheard would end the
 * process.
 */
export class LiveStream {
  private open = true;

  constructor(
    private readonly response: ServerResponse,
    readonly owner: StreamOwner,
    log: FastifyBaseLogger,
    private readonly onEnd: () => void,
  ) {
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    // 'close' comes when the client leaves as well as after this side's end.
    response.on("close", () => this.end());
    response.on("error", (error) => {
      log.warn({ err: error }, "a notification stream failed; it ends");
      this.end();
    });
    this.write("retry: 3000\n\n");
  }

  send(event: "ready" | "notification", data: unknown) {
    this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** A comment line: keeps proxies and the browser from taking a quiet stream for a dead one. */
  heartbeat() {
    this.write(": keep-alive\n\n");
  }

  end() {
    if (!this.open) return;
    this.open = false;
    this.onEnd();
    if (this.writable()) this.response.end();
  }

  private write(text: string) {
    if (this.open && this.writable()) this.response.write(text);
  }

  // `response.writable` stays true after the end and after the socket closed.
  private writable() {
    return !this.response.writableEnded && !this.response.destroyed;
  }
}
