/**
 * A client of the API typed only by the types openapi-typescript generates from the API
 * description (api.gen.ts, written by openapi.test.ts, never committed). The test type-checks
 * this file against fresh types, so a change to the document that breaks a caller fails it,
 * then runs it against a started app, so a document that the server does not keep fails too.
 */
import createClient from "openapi-fetch";
import type { paths } from "./api.gen.ts";

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`typed client: ${what}`);
}

/** A multipart body from an object: files as they are, everything else as text. */
function formData(body: unknown): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (item instanceof Blob) form.append(name, item, `${name}.png`);
      else if (item !== undefined) form.append(name, String(item));
    }
  }
  return form;
}

/** The Cookie header that carries the cookies an answer set. */
function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/**
 * Registers, buys coins, posts a task, submits, approves and withdraws, as two users would; the
 * buyer's program posts and approves with an API key (decision 033). `confirmEmail` stands for
 * the worker opening the mailed link (rule R28), outside the API.
 */
export async function runClient(
  baseUrl: string,
  image: Blob,
  confirmEmail: (userId: string) => Promise<void>,
) {
  const anonymous = createClient<paths>({ baseUrl });
  const as = (cookie: string) => createClient<paths>({ baseUrl, headers: { cookie } });

  const refused = await anonymous.GET("/api/me");
  check(refused.response.status === 401, "GET /api/me without a session answers 401");
  check(refused.error?.error.code === "UNAUTHENTICATED", "the 401 carries the shared error shape");

  const register = async (role: "buyer" | "worker") => {
    const email = `${role}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
    const answer = await anonymous.POST("/api/register", {
      body: { name: `Typed ${role}`, role, email, password: "Secret12", photo: image },
      bodySerializer: formData,
    });
    check(answer.data !== undefined, `register answers 201: ${JSON.stringify(answer.error)}`);
    check(answer.data.user.role === role, "register answers the new user");
    return { id: answer.data.user.id, client: as(cookiesOf(answer.response)) };
  };

  const buyer = await register("buyer");
  const started = await buyer.client.POST("/api/payments", { body: { package_id: "coins-500" } });
  check(started.data !== undefined, `a payment starts: ${JSON.stringify(started.error)}`);
  const paid = await buyer.client.POST("/api/payments/{id}/sandbox-confirm", {
    params: { path: { id: started.data.payment.id } },
    body: { card_number: "4242424242424242", exp_month: 12, exp_year: 2099, cvc: "123" },
  });
  check(paid.data !== undefined, `the sandbox payment is paid: ${JSON.stringify(paid.error)}`);

  const created = await buyer.client.POST("/api/buyer/api-keys", { body: { name: "Typed client" } });
  check(created.data !== undefined, `an API key is made: ${JSON.stringify(created.error)}`);
  check(created.data.key.startsWith("tm_"), "the key starts tm_");
  const program = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${created.data.key}` } });
  const account = await program.GET("/api/me");
  check(account.response.status === 403, "a key cannot read the account");
  const listed = await buyer.client.GET("/api/buyer/api-keys");
  check(
    listed.data?.[0]?.prefix === created.data.key.slice(0, 11),
    "the key is listed by its first characters",
  );

  const completion = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const posted = await program.POST("/api/tasks", {
    body: {
      task_title: "Check a typed client",
      task_detail: "Read the generated types and call the API with them.",
      required_workers: 1,
      payable_amount: 250,
      completion_date: completion,
      submission_info: "A link",
      task_image: image,
    },
    bodySerializer: formData,
  });
  check(posted.data !== undefined, `the task is posted: ${JSON.stringify(posted.error)}`);
  const taskId: string = posted.data.id;

  const worker = await register("worker");
  const submitted = await worker.client.POST("/api/tasks/{id}/submissions", {
    params: { path: { id: taskId } },
    body: { submission_details: "Done: https://example.com/proof" },
  });
  check(submitted.data !== undefined, `the work is submitted: ${JSON.stringify(submitted.error)}`);
  check(submitted.data.status === "pending", "a new submission is pending");

  const approved = await program.POST("/api/submissions/{id}/approve", {
    params: { path: { id: submitted.data.id } },
  });
  check(approved.data !== undefined, `the submission is approved: ${JSON.stringify(approved.error)}`);
  check(approved.data.status === "approved", "the approved submission says so");

  const again = await buyer.client.POST("/api/submissions/{id}/approve", {
    params: { path: { id: submitted.data.id } },
  });
  check(again.response.status === 409, "approving twice answers 409");
  check(typeof again.error?.error.message === "string", "the 409 carries the shared error shape");

  const me = await worker.client.GET("/api/me");
  check(me.data !== undefined && me.data.user.coins >= 200, "the worker was paid");
  await confirmEmail(worker.id);
  const withdrawn = await worker.client.POST("/api/withdrawals", {
    body: { withdrawal_coin: 200, payment_system: "PayPal", account_number: "worker@example.com" },
  });
  check(withdrawn.data !== undefined, `the withdrawal is asked for: ${JSON.stringify(withdrawn.error)}`);
  check(withdrawn.data.withdrawal_coin === 200, "the withdrawal answers its coins");
  return { taskId, submissionId: submitted.data.id, withdrawalId: withdrawn.data.id };
}
