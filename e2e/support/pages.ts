import type { Page } from "playwright-core";
import type { Task } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { startServer } from "./server.ts";

// Every page of the app for every role, on the demo data: the screens gallery and the
// design checks (e2e/design.test.ts) walk the same list.

export const ROLES = ["visitor", "worker", "buyer", "admin"] as const;
export type Role = (typeof ROLES)[number];
export interface Screen {
  role: Role;
  name: string;
  path: string;
}

const DEMO_PASSWORD = "Demo1234";
const ADMIN = { email: "pages-admin@taskmint.local", password: "Pages1234" };
const ACCOUNTS: Record<Exclude<Role, "visitor">, { email: string; password: string }> = {
  worker: { email: "worker@taskmint.local", password: DEMO_PASSWORD },
  buyer: { email: "buyer@taskmint.local", password: DEMO_PASSWORD },
  admin: ADMIN,
};

/** The real server on the demo data (two demo users, three tasks, one submission) and an admin. */
export const startDemoServer = () =>
  startServer({ SEED_DEMO: "true", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });

/** Signs the page's browser context in as the role's demo account (a visitor stays signed out). */
export async function signInAs(page: Page, role: Role, baseUrl: string) {
  if (role === "visitor") return;
  const answer = await page.request.post(`${baseUrl}/api/auth/sign-in/email`, {
    data: ACCOUNTS[role],
    headers: { origin: baseUrl },
  });
  if (!answer.ok()) throw new Error(`${role} sign-in failed: ${answer.status()}`);
}

/** The pages, with the demo task the demo worker already submitted to as the details page. */
export async function allPages(baseUrl: string): Promise<Screen[]> {
  const tasks = (await (await fetch(`${baseUrl}/api/tasks`)).json()) as { items: Task[] };
  const submitted = tasks.items.find((task) => task.task_title.startsWith("Watch")) ?? tasks.items[0];
  if (!submitted) throw new Error("the demo data has no task");
  const d = paths.dashboard;
  const pages: Record<Role, Record<string, string>> = {
    visitor: {
      home: paths.home,
      about: paths.about,
      "all-tasks": paths.allTasks,
      login: paths.login,
      register: paths.register,
      "forgot-password": paths.forgotPassword,
      "reset-password": paths.resetPassword,
      "verify-email": paths.verifyEmail,
      "verify-email-expired": `${paths.verifyEmail}?error=TOKEN_EXPIRED`,
      // The page reads the kind from the token; the signature is checked only on the click.
      unsubscribe: `${paths.unsubscribe}?token=00000000-0000-4000-8000-000000000000.work_decided.signature`,
      "not-found": "/no-such-page",
    },
    worker: {
      home: d.workerHome,
      "task-list": d.taskList,
      "saved-searches": d.savedSearches,
      "task-details": d.taskDetails(submitted.id),
      "my-submissions": d.mySubmissions,
      withdrawals: d.withdrawals,
      statement: d.statement,
      notifications: d.notifications,
      "hidden-buyers": d.hiddenBuyers,
      profile: paths.profile,
      "public-home": paths.home,
    },
    buyer: {
      home: d.buyerHome,
      "add-task": d.addTasks,
      "my-tasks": d.myTasks,
      "purchase-coin": d.purchaseCoin,
      "payment-history": d.paymentHistory,
      "blocked-workers": d.blockedWorkers,
      developer: d.developer,
      statement: d.statement,
      notifications: d.notifications,
    },
    admin: {
      home: d.adminHome,
      "manage-users": d.manageUsers,
      "manage-tasks": d.manageTasks,
      appeals: d.appeals,
      withdrawals: d.adminWithdrawals,
      notifications: d.notifications,
      profile: paths.profile,
    },
  };
  return ROLES.flatMap((role) =>
    Object.entries(pages[role]).map(([name, pagePath]) => ({ role, name, path: pagePath })),
  );
}

/** The page as it settles: its heading shown, requests done, no skeleton or spinner left, fonts ready. */
export async function settle(page: Page) {
  await page
    .locator("h1")
    .first()
    .waitFor({ timeout: 15_000 })
    .catch(() => undefined); // a page without a heading is what the design checks report
  await page.waitForLoadState("networkidle");
  // Parts far below the fold load as they come near (Home's top performers): a full-page
  // screenshot or check wants them there.
  await page.evaluate("window.scrollTo(0, document.body.scrollHeight)");
  await page.waitForLoadState("networkidle");
  await page.evaluate("window.scrollTo(0, 0)");
  await page
    .locator(".skeleton, .loading")
    .first()
    .waitFor({ state: "detached", timeout: 10_000 })
    .catch(() => undefined);
  await page.evaluate("document.fonts.ready.then(() => true)");
}
