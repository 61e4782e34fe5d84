import { describe, expect, it } from "vitest";
import type { Submission, Task, User } from "@taskmint/shared";
import { autoApproveDue } from "./modules/submissions/service.ts";
import { expireTasks } from "./modules/tasks/service.ts";
import { postTask, registerUser, TestClock, twoServersPerFile } from "./test/harness.ts";

// Two server processes on one database, requests alternating between them the way a
// round-robin balancer sends them (on PGlite both apps share the one embedded database).

const clock = new TestClock();
const servers = twoServersPerFile(clock);

describe("several servers", () => {
  it("share sessions and uploads: signed in on one, recognised and served by the other", async () => {
    const buyer = await registerUser(servers.one.app, "buyer");
    const me = await servers.two.app.inject({
      method: "GET",
      url: "/api/me",
      headers: { cookie: buyer.cookie },
    });
    expect(me.json<{ user: User }>().user.email).toBe(buyer.email);
    const photo = await servers.two.app.inject({ method: "GET", url: buyer.user.photo ?? "" });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers["content-type"]).toBe("image/webp");
    const signedOut = await servers.two.app.inject({
      method: "POST",
      url: "/api/auth/sign-out",
      headers: { cookie: buyer.cookie },
      payload: {},
    });
    expect(signedOut.statusCode).toBe(200);
    expect(
      (await servers.one.app.inject({ method: "GET", url: "/api/me", headers: { cookie: buyer.cookie } }))
        .statusCode,
    ).toBe(401);
  });

  it("runs each background job's work once when both servers run the jobs at the same moment", async () => {
    const buyer = await registerUser(servers.one.app, "buyer");
    const task = (
      await postTask(servers.one.app, buyer.cookie, {
        required_workers: 3,
        payable_amount: 4,
        completion_date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
      })
    ).json<Task>();
    const worker = await registerUser(servers.two.app, "worker");
    const submission = (
      await servers.two.app.inject({
        method: "POST",
        url: `/api/tasks/${task.id}/submissions`,
        headers: { cookie: worker.cookie },
        payload: { submission_details: "done" },
      })
    ).json<Submission>();
    expect(submission.status).toBe("pending");
    const later = new Date(Date.now() + 4 * 86_400_000);
    await Promise.all([
      autoApproveDue(servers.one.db, later),
      autoApproveDue(servers.two.db, later),
      expireTasks(servers.one.db, later),
      expireTasks(servers.two.db, later),
    ]);
    const coins = async (cookie: string) =>
      (await servers.one.app.inject({ method: "GET", url: "/api/me", headers: { cookie } })).json<{
        user: User;
      }>().user.coins;
    expect(await coins(worker.cookie)).toBe(10 + 4);
    expect(await coins(buyer.cookie)).toBe(50 - 12 + 8);
  });
});
