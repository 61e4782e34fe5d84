import { lazy, Suspense, type ReactNode } from "react";
import { createBrowserRouter } from "react-router";
import type { Role } from "@taskmint/shared";
import { ComingSoon } from "../components/ui/ComingSoon.tsx";
import { Spinner } from "../components/ui/Spinner.tsx";
import { LoginPage } from "../features/auth/routes/LoginPage.tsx";
import { RegisterPage } from "../features/auth/routes/RegisterPage.tsx";
import { HomePage } from "../features/public/routes/HomePage.tsx";
import { NotFoundPage } from "../features/public/routes/NotFoundPage.tsx";
import { GuestOnly, RequireRole, RequireUser } from "./guards.tsx";
import { PublicLayout } from "./layouts/PublicLayout.tsx";

// Signed-in code loads on demand, so the public pages stay small.
const DashboardLayout = lazy(() => import("./layouts/DashboardLayout.tsx").then((module) => ({ default: module.DashboardLayout })));
const WelcomePage = lazy(() => import("../features/dashboard/routes/WelcomePage.tsx").then((module) => ({ default: module.WelcomePage })));

const loading = (element: ReactNode) => <Suspense fallback={<Spinner />}>{element}</Suspense>;
const forRole = (role: Role, element: ReactNode) => <RequireRole role={role}>{loading(element)}</RequireRole>;

/** Dashboard pages by role; each is built by its own feature. */
const dashboardPages: { path: string; role: Role; title: string }[] = [
  { path: "workerHome", role: "worker", title: "Worker Home" },
  { path: "task-list", role: "worker", title: "Available Tasks" },
  { path: "task-details/:id", role: "worker", title: "Task Details" },
  { path: "my-submissions", role: "worker", title: "My Submissions" },
  { path: "withdrawals", role: "worker", title: "Withdrawals" },
  { path: "BuyersHome", role: "buyer", title: "Buyer Home" },
  { path: "add-tasks", role: "buyer", title: "Add Micro Task for Earning" },
  { path: "my-tasks", role: "buyer", title: "My Tasks" },
  { path: "purchase-coin", role: "buyer", title: "Purchase Coin" },
  { path: "payment/process", role: "buyer", title: "Payment" },
  { path: "payment/success", role: "buyer", title: "Payment Successful" },
  { path: "payment/history", role: "buyer", title: "Payment History" },
  { path: "adminHome", role: "admin", title: "Admin Home" },
  { path: "manage-users", role: "admin", title: "Manage Users" },
  { path: "manage-task", role: "admin", title: "Manage Task" },
];

export const router = createBrowserRouter([
  {
    element: <PublicLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: "about", element: <ComingSoon title="About Us" /> },
      { path: "allTask", element: <ComingSoon title="All Tasks" /> },
      { path: "login", element: <GuestOnly><LoginPage /></GuestOnly> },
      { path: "register", element: <GuestOnly><RegisterPage /></GuestOnly> },
      { path: "forgot-password", element: <ComingSoon title="Forgot password" /> },
      { path: "profile", element: <RequireUser><ComingSoon title="Profile" /></RequireUser> },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
  {
    path: "/dashboard",
    element: <RequireUser>{loading(<DashboardLayout />)}</RequireUser>,
    children: [
      { index: true, element: loading(<WelcomePage />) },
      ...dashboardPages.map((page) => ({ path: page.path, element: forRole(page.role, <ComingSoon title={page.title} />) })),
    ],
  },
]);
