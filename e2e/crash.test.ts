import sharp from "sharp";
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
    const { payment } = await asBuyer<{ payment: { id: string } }>("POST", "/api/payments", { package_id: "coins-1000" });
    await asBuyer("POST", `/api/payments/${payment.id}/sandbox-confirm`, { card_number: "4242424242424242", exp_month: 12, exp_year: 2099, cvc: "123" });
    const image = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#333333" } }).png().toBuffer();
    const due = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);

    const acknowledged = { tasks: [] as string[], workers: [] as string[] };
    let stop = false;
    const taskLoop = async () => {
      while (!stop) {
        const form = new FormData();
        for (const [name, value] of Object.entries({ task_title: "Load", task_detail: "d", required_workers: "1", payable_amount: "1", completion_date: due, submission_info: "s" })) {
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
    console.info(`crash run: ${acknowledged.tasks.length} tasks and ${acknowledged.workers.length} sign-ups acknowledged before SIGKILL`);
    expect(acknowledged.tasks.length + acknowledged.workers.length).toBeGreaterThan(5);

    const second = await startServer(ADMIN, { dataDir: first.dataDir, port: Number(new URL(first.url).port) });
    servers.push(second);
    for (const id of acknowledged.tasks) expect((await fetch(`${second.url}/api/tasks/${id}`)).status, `task ${id}`).toBe(200);
    const asAdmin = await apiSession(second.url, { email: ADMIN.ADMIN_EMAIL, password: ADMIN.ADMIN_PASSWORD, name: "Admin" });
    const workers = await asAdmin<{ total: number }>("GET", "/api/admin/users?role=worker&limit=1");
    expect(workers.total).toBeGreaterThanOrEqual(acknowledged.workers.length);
    const ledger = await asAdmin<{ ok: boolean; problems: string[] }>("GET", "/api/admin/ledger/check");
    expect(ledger.problems).toEqual([]);
    const again = await apiSession(second.url, buyer);
    const me = await again<{ user: { coins: number } }>("GET", "/api/me");
    const tasks = await again<{ total: number }>("GET", "/api/buyer/tasks?limit=1");
    // Every task the server kept cost 1 coin; the wallet agrees with what survived.
    expect(me.user.coins).toBe(1050 - tasks.total);
    expect(tasks.total).toBeGreaterThanOrEqual(acknowledged.tasks.length);
  });
});
