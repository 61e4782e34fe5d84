import { lazy, Suspense, type ReactNode } from "react";
import { createBrowserRouter } from "react-router";
import type { Role } from "@taskmint/shared";
import { Spinner } from "../components/ui/Spinner.tsx";
import { HomePage } from "../features/public/routes/HomePage.tsx";
import { NotFoundPage } from "../features/public/routes/NotFoundPage.tsx";
import { GuestOnly, RequireRole, RequireUser } from "./guards.tsx";
import { PublicLayout } from "./layouts/PublicLayout.tsx";

// Everything but Home loads on demand, so the first page stays small.
const LoginPage = lazy(() =>
  import("../features/auth/routes/LoginPage.tsx").then((module) => ({ default: module.LoginPage })),
);
const RegisterPage = lazy(() =>
  import("../features/auth/routes/RegisterPage.tsx").then((module) => ({ default: module.RegisterPage })),
);
const DashboardLayout = lazy(() =>
  import("./layouts/DashboardLayout.tsx").then((module) => ({ default: module.DashboardLayout })),
);
const WelcomePage = lazy(() =>
  import("../features/dashboard/routes/WelcomePage.tsx").then((module) => ({ default: module.WelcomePage })),
);
const AddTaskPage = lazy(() =>
  import("../features/tasks/routes/AddTaskPage.tsx").then((module) => ({ default: module.AddTaskPage })),
);
const MyTasksPage = lazy(() =>
  import("../features/tasks/routes/MyTasksPage.tsx").then((module) => ({ default: module.MyTasksPage })),
);
const BuyerHomePage = lazy(() =>
  import("../features/tasks/routes/BuyerHomePage.tsx").then((module) => ({ default: module.BuyerHomePage })),
);
const TaskListPage = lazy(() =>
  import("../features/tasks/routes/TaskListPage.tsx").then((module) => ({ default: module.TaskListPage })),
);
const TaskDetailsPage = lazy(() =>
  import("../features/tasks/routes/TaskDetailsPage.tsx").then((module) => ({
    default: module.TaskDetailsPage,
  })),
);
const MySubmissionsPage = lazy(() =>
  import("../features/tasks/routes/MySubmissionsPage.tsx").then((module) => ({
    default: module.MySubmissionsPage,
  })),
);
const WorkerHomePage = lazy(() =>
  import("../features/tasks/routes/WorkerHomePage.tsx").then((module) => ({
    default: module.WorkerHomePage,
  })),
);
const PurchaseCoinPage = lazy(() =>
  import("../features/coins/routes/PurchaseCoinPage.tsx").then((module) => ({
    default: module.PurchaseCoinPage,
  })),
);
const PaymentProcessPage = lazy(() =>
  import("../features/coins/routes/PaymentProcessPage.tsx").then((module) => ({
    default: module.PaymentProcessPage,
  })),
);
const PaymentSuccessPage = lazy(() =>
  import("../features/coins/routes/PaymentSuccessPage.tsx").then((module) => ({
    default: module.PaymentSuccessPage,
  })),
);
const PaymentHistoryPage = lazy(() =>
  import("../features/coins/routes/PaymentHistoryPage.tsx").then((module) => ({
    default: module.PaymentHistoryPage,
  })),
);
const WithdrawalsPage = lazy(() =>
  import("../features/coins/routes/WithdrawalsPage.tsx").then((module) => ({
    default: module.WithdrawalsPage,
  })),
);
const AdminHomePage = lazy(() =>
  import("../features/admin/routes/AdminHomePage.tsx").then((module) => ({ default: module.AdminHomePage })),
);
const ManageUsersPage = lazy(() =>
  import("../features/admin/routes/ManageUsersPage.tsx").then((module) => ({
    default: module.ManageUsersPage,
  })),
);
const ManageTasksPage = lazy(() =>
  import("../features/admin/routes/ManageTasksPage.tsx").then((module) => ({
    default: module.ManageTasksPage,
  })),
);
const ProfilePage = lazy(() =>
  import("../features/account/routes/ProfilePage.tsx").then((module) => ({ default: module.ProfilePage })),
);
const ForgotPasswordPage = lazy(() =>
  import("../features/account/routes/ForgotPasswordPage.tsx").then((module) => ({
    default: module.ForgotPasswordPage,
  })),
);
const ResetPasswordPage = lazy(() =>
  import("../features/account/routes/ResetPasswordPage.tsx").then((module) => ({
    default: module.ResetPasswordPage,
  })),
);
const AboutPage = lazy(() =>
  import("../features/public/routes/AboutPage.tsx").then((module) => ({ default: module.AboutPage })),
);
const AllTasksPage = lazy(() =>
  import("../features/public/routes/AllTasksPage.tsx").then((module) => ({ default: module.AllTasksPage })),
);

const loading = (element: ReactNode) => <Suspense fallback={<Spinner />}>{element}</Suspense>;
const forRole = (role: Role, element: ReactNode) => <RequireRole role={role}>{loading(element)}</RequireRole>;

/** Dashboard pages by role. */
const dashboardPages: { path: string; role: Role; element: ReactNode }[] = [
  { path: "workerHome", role: "worker", element: <WorkerHomePage /> },
  { path: "task-list", role: "worker", element: <TaskListPage /> },
  { path: "task-details/:id", role: "worker", element: <TaskDetailsPage /> },
  { path: "my-submissions", role: "worker", element: <MySubmissionsPage /> },
  { path: "withdrawals", role: "worker", element: <WithdrawalsPage /> },
  { path: "BuyersHome", role: "buyer", element: <BuyerHomePage /> },
  { path: "add-tasks", role: "buyer", element: <AddTaskPage /> },
  { path: "my-tasks", role: "buyer", element: <MyTasksPage /> },
  { path: "purchase-coin", role: "buyer", element: <PurchaseCoinPage /> },
  { path: "payment/process", role: "buyer", element: <PaymentProcessPage /> },
  { path: "payment/success", role: "buyer", element: <PaymentSuccessPage /> },
  { path: "payment/history", role: "buyer", element: <PaymentHistoryPage /> },
  { path: "adminHome", role: "admin", element: <AdminHomePage /> },
  { path: "manage-users", role: "admin", element: <ManageUsersPage /> },
  { path: "manage-task", role: "admin", element: <ManageTasksPage /> },
];

export const router = createBrowserRouter([
  {
    element: <PublicLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: "about", element: loading(<AboutPage />) },
      { path: "allTask", element: loading(<AllTasksPage />) },
      { path: "login", element: <GuestOnly>{loading(<LoginPage />)}</GuestOnly> },
      { path: "register", element: <GuestOnly>{loading(<RegisterPage />)}</GuestOnly> },
      { path: "forgot-password", element: loading(<ForgotPasswordPage />) },
      { path: "reset-password", element: loading(<ResetPasswordPage />) },
      { path: "profile", element: <RequireUser>{loading(<ProfilePage />)}</RequireUser> },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
  {
    path: "/dashboard",
    element: <RequireUser>{loading(<DashboardLayout />)}</RequireUser>,
    children: [
      { index: true, element: loading(<WelcomePage />) },
      ...dashboardPages.map((page) => ({ path: page.path, element: forRole(page.role, page.element) })),
    ],
  },
]);
