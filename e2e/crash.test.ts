import { sql } from "drizzle-orm";
import sharp from "sharp";
import { openDatabase } from "../apps/server/src/db/client.ts";
import { afterAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "./support/server.ts";
import { apiSession, registerViaApi } from "./support/users.ts";

// Kill the server with SIGKILL in the middle of a steady mixed load, restart it on the
// same data, and check that every answered request was kept and no coin was lost.

const ADMIN = { ADMIN_EMAIL: "crash-admin@example.com", ADMIN_PASSWORD: "Admin1234" };
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const server of servers.reverse()) await server.stop().catch(() => undefined);
});

describe("crash and restart", () => {
  it("keeps every acknowledged write and a balanced ledger after SIGKILL under load", async () => {
    const first = await startServer(ADMIN);
    servers.push(first);
    const buyer = await registerViaApi(first.url, "buyer", "Crash Buyer");
    const asBuyer = await apiSession(first.url, buyer);
    const { payment } = await asBuyer<{ payment: { id: string } }>("POST", "/api/payments", {
      package_id: "coins-1000",
    });
    await asBuyer("POST", `/api/payments/${payment.id}/sandbox-confirm`, {
      card_number: "4242424242424242",
      exp_month: 12,
      exp_year: 2099,
      cvc: "123",
    });
    const image = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#333333" } })
      .png()
      .toBuffer();
    const due = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);

    // A task with a pending submission, for the background jobs to find after the restart.
    const jobForm = new FormData();
    for (const [name, value] of Object.entries({
      task_title: "For the jobs",
      task_detail: "d",
      required_workers: "3",
      payable_amount: "7",
      completion_date: due,
      submission_info: "s",
    })) {
      jobForm.append(name, value);
    }
    jobForm.append("task_image", new Blob([new Uint8Array(image)], { type: "image/png" }), "t.png");
    const jobTask = await asBuyer<{ id: string }>("POST", "/api/tasks", jobForm);
    const jobWorker = await registerViaApi(first.url, "worker", "Job Worker");
    await (
      await apiSession(first.url, jobWorker)
    )("POST", `/api/tasks/${jobTask.id}/submissions`, { submission_details: "done" });

    const acknowledged = { tasks: [] as string[], workers: [] as string[] };
    let stop = false;
    const taskLoop = async () => {
      while (!stop) {
        const form = new FormData();
        for (const [name, value] of Object.entries({
          task_title: "Load",
          task_detail: "d",
          required_workers: "1",
          payable_amount: "1",
          completion_date: due,
          submission_info: "s",
        })) {
          form.append(name, value);
        }
        form.append("task_image", new Blob([new Uint8Array(image)], { type: "image/png" }), "t.png");
        try {
          acknowledged.tasks.push((await asBuyer<{ id: string }>("POST", "/api/tasks", form)).id);
        } catch {
          return; // the server died under us
        }
      }
    };
    const signupLoop = async () => {
      while (!stop) {
        try {
          acknowledged.workers.push((await registerViaApi(first.url, "worker", "Load Worker")).email);
        } catch {
          return;
        }
      }
    };
    const loops = [taskLoop(), taskLoop(), signupLoop()];
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await first.kill();
    stop = true;
    await Promise.all(loops);
    console.info(
      `crash run: ${acknowledged.tasks.length} tasks and ${acknowledged.workers.length} sign-ups acknowledged before SIGKILL`,
    );
    expect(acknowledged.tasks.length + acknowledged.workers.length).toBeGreaterThan(5);

    // While it is down, time passes: the submission is due for auto-approval and the task past its date.
    const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: first.dataDir });
    await database.db.execute(
      sql`update submissions set auto_approve_at = now() - interval '1 hour' where task_id = ${jobTask.id}`,
    );
    await database.db.execute(
      sql`update tasks set completion_date = current_date - 1 where id = ${jobTask.id}`,
    );
    await database.close();

    const second = await startServer(ADMIN, {
      dataDir: first.dataDir,
      port: Number(new URL(first.url).port),
    });
    servers.push(second);
    for (const id of acknowledged.tasks)
      expect((await fetch(`${second.url}/api/tasks/${id}`)).status, `task ${id}`).toBe(200);
    const asAdmin = await apiSession(second.url, {
      email: ADMIN.ADMIN_EMAIL,
      password: ADMIN.ADMIN_PASSWORD,
      name: "Admin",
    });
    const workers = await asAdmin<{ total: number }>("GET", "/api/admin/users?role=worker&limit=1");
    expect(workers.total).toBeGreaterThanOrEqual(acknowledged.workers.length);
    const ledger = await asAdmin<{ ok: boolean; problems: string[] }>("GET", "/api/admin/ledger/check");
    expect(ledger.problems).toEqual([]);
    const again = await apiSession(second.url, buyer);
    const tasks = await again<{ total: number }>("GET", "/api/buyer/tasks?limit=1");
    // Every task the server kept cost 1 coin; the wallet agrees with what survived.
    // The jobs resumed at start: the due submission was approved and the expired task closed with its 2 open slots refunded.
    const asJobWorker = await apiSession(second.url, jobWorker);
    await expect
      .poll(async () => (await asJobWorker<{ user: { coins: number } }>("GET", "/api/me")).user.coins, {
        timeout: 10_000,
      })
      .toBe(17);
    await expect
      .poll(
        async () =>
          (await (await fetch(`${second.url}/api/tasks/${jobTask.id}`)).json()) as { status: string },
      )
      .toMatchObject({ status: "closed" });
    // Every other task the server kept cost 1 coin; the wallet agrees with what survived.
    const me = await again<{ user: { coins: number } }>("GET", "/api/me");
    expect(me.user.coins).toBe(1050 - 21 + 14 - (tasks.total - 1));
    expect(tasks.total - 1).toBeGreaterThanOrEqual(acknowledged.tasks.length);
  });
});
