import { lazy, Suspense, type ComponentType, type ReactNode } from "react";
import type { NonIndexRouteObject, RouteObject } from "react-router";
import type { Role } from "@taskmint/shared/constants";
import { paths } from "@taskmint/shared/routes";
import { RouteError } from "../components/ui/RouteError.tsx";
import { PageLoading } from "../components/ui/PageSkeleton.tsx";
import { HomePage } from "../features/public/routes/HomePage.tsx";
import { NotFoundPage } from "../features/public/routes/NotFoundPage.tsx";
import { GuestOnly, RequireRole, RequireUser, RoleHome } from "./guards.tsx";
import { PublicLayout } from "./layouts/PublicLayout.tsx";

/** A component of a module loaded on demand: everything but Home, so the first page stays small. */
const onDemand = <Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) =>
  lazy(() => load().then((module) => ({ default: module[name] })));

const LoginPage = onDemand(() => import("../features/auth/routes/LoginPage.tsx"), "LoginPage");
const RegisterPage = onDemand(() => import("../features/auth/routes/RegisterPage.tsx"), "RegisterPage");
const DashboardLayout = onDemand(() => import("./layouts/DashboardLayout.tsx"), "DashboardLayout");
const AddTaskPage = onDemand(() => import("../features/tasks/routes/AddTaskPage.tsx"), "AddTaskPage");
const MyTasksPage = onDemand(() => import("../features/tasks/routes/MyTasksPage.tsx"), "MyTasksPage");
const BuyerHomePage = onDemand(() => import("./pages/BuyerHomePage.tsx"), "BuyerHomePage");
const WorkerTaskListPage = onDemand(() => import("./pages/WorkerTaskListPage.tsx"), "WorkerTaskListPage");
const SavedSearchesPage = onDemand(
  () => import("../features/alerts/routes/SavedSearchesPage.tsx"),
  "SavedSearchesPage",
);
const TaskDetailsPage = onDemand(() => import("./pages/TaskDetailsPage.tsx"), "TaskDetailsPage");
const MySubmissionsPage = onDemand(() => import("./pages/MySubmissionsPage.tsx"), "MySubmissionsPage");
const WorkerHomePage = onDemand(() => import("./pages/WorkerHomePage.tsx"), "WorkerHomePage");
const PurchaseCoinPage = onDemand(
  () => import("../features/coins/routes/PurchaseCoinPage.tsx"),
  "PurchaseCoinPage",
);
const PaymentProcessPage = onDemand(
  () => import("../features/coins/routes/PaymentProcessPage.tsx"),
  "PaymentProcessPage",
);
const PaymentSuccessPage = onDemand(
  () => import("../features/coins/routes/PaymentSuccessPage.tsx"),
  "PaymentSuccessPage",
);
const PaymentHistoryPage = onDemand(
  () => import("../features/coins/routes/PaymentHistoryPage.tsx"),
  "PaymentHistoryPage",
);
const WithdrawalsPage = onDemand(
  () => import("../features/coins/routes/WithdrawalsPage.tsx"),
  "WithdrawalsPage",
);
const StatementPage = onDemand(() => import("../features/coins/routes/StatementPage.tsx"), "StatementPage");
const NotificationsPage = onDemand(
  () => import("../features/notifications/routes/NotificationsPage.tsx"),
  "NotificationsPage",
);
const AdminWithdrawalsPage = onDemand(
  () => import("../features/admin/routes/AdminWithdrawalsPage.tsx"),
  "AdminWithdrawalsPage",
);
const AdminHomePage = onDemand(() => import("../features/admin/routes/AdminHomePage.tsx"), "AdminHomePage");
const ManageUsersPage = onDemand(
  () => import("../features/admin/routes/ManageUsersPage.tsx"),
  "ManageUsersPage",
);
const ManageTasksPage = onDemand(
  () => import("../features/admin/routes/ManageTasksPage.tsx"),
  "ManageTasksPage",
);
const BlockedWorkersPage = onDemand(
  () => import("../features/trust/routes/BlockedWorkersPage.tsx"),
  "BlockedWorkersPage",
);
const HiddenBuyersPage = onDemand(
  () => import("../features/trust/routes/HiddenBuyersPage.tsx"),
  "HiddenBuyersPage",
);
const DeveloperPage = onDemand(
  () => import("../features/developer/routes/DeveloperPage.tsx"),
  "DeveloperPage",
);
const AdminAppealsPage = onDemand(
  () => import("../features/trust/routes/AdminAppealsPage.tsx"),
  "AdminAppealsPage",
);
const ProfilePage = onDemand(() => import("../features/account/routes/ProfilePage.tsx"), "ProfilePage");
const ForgotPasswordPage = onDemand(
  () => import("../features/account/routes/ForgotPasswordPage.tsx"),
  "ForgotPasswordPage",
);
const ResetPasswordPage = onDemand(
  () => import("../features/account/routes/ResetPasswordPage.tsx"),
  "ResetPasswordPage",
);
const mailLinkPages = () => import("../features/account/routes/MailLinkPages.tsx");
const VerifyEmailPage = onDemand(mailLinkPages, "VerifyEmailPage");
const UnsubscribePage = onDemand(mailLinkPages, "UnsubscribePage");
const AboutPage = onDemand(() => import("../features/public/routes/AboutPage.tsx"), "AboutPage");
const AllTasksPage = onDemand(() => import("../features/public/routes/AllTasksPage.tsx"), "AllTasksPage");

const loading = (element: ReactNode) => <Suspense fallback={<PageLoading />}>{element}</Suspense>;
const forRole = (role: Role, element: ReactNode) => <RequireRole role={role}>{loading(element)}</RequireRole>;

/**
 * A layout route: a page that fails shows RouteError inside the layout, so its menus stay;
 * a layout that fails shows RouteError alone.
 */
const layout = (route: Omit<NonIndexRouteObject, "children">, children: RouteObject[]): RouteObject => ({
  ...route,
  errorElement: <RouteError />,
  children: [{ errorElement: <RouteError />, children }],
});

const dashboard = paths.dashboard;

/** Dashboard pages by role. */
const dashboardPages: { path: string; role: Role; element: ReactNode }[] = [
  { path: dashboard.workerHome, role: "worker", element: <WorkerHomePage /> },
  { path: dashboard.taskList, role: "worker", element: <WorkerTaskListPage /> },
  { path: dashboard.savedSearches, role: "worker", element: <SavedSearchesPage /> },
  { path: dashboard.taskDetails(":id"), role: "worker", element: <TaskDetailsPage /> },
  { path: dashboard.mySubmissions, role: "worker", element: <MySubmissionsPage /> },
  { path: dashboard.withdrawals, role: "worker", element: <WithdrawalsPage /> },
  { path: dashboard.hiddenBuyers, role: "worker", element: <HiddenBuyersPage /> },
  { path: dashboard.buyerHome, role: "buyer", element: <BuyerHomePage /> },
  { path: dashboard.addTasks, role: "buyer", element: <AddTaskPage /> },
  { path: dashboard.myTasks, role: "buyer", element: <MyTasksPage /> },
  { path: dashboard.purchaseCoin, role: "buyer", element: <PurchaseCoinPage /> },
  { path: dashboard.paymentProcess, role: "buyer", element: <PaymentProcessPage /> },
  { path: dashboard.paymentSuccess, role: "buyer", element: <PaymentSuccessPage /> },
  { path: dashboard.paymentHistory, role: "buyer", element: <PaymentHistoryPage /> },
  { path: dashboard.blockedWorkers, role: "buyer", element: <BlockedWorkersPage /> },
  { path: dashboard.developer, role: "buyer", element: <DeveloperPage /> },
  { path: dashboard.adminHome, role: "admin", element: <AdminHomePage /> },
  { path: dashboard.manageUsers, role: "admin", element: <ManageUsersPage /> },
  { path: dashboard.manageTasks, role: "admin", element: <ManageTasksPage /> },
  { path: dashboard.appeals, role: "admin", element: <AdminAppealsPage /> },
  { path: dashboard.adminWithdrawals, role: "admin", element: <AdminWithdrawalsPage /> },
];

/** Every page; the browser's router and the build's prerender of public pages both use these. */
export const routes: RouteObject[] = [
  layout({ element: <PublicLayout /> }, [
    { index: true, element: <HomePage /> },
    { path: paths.about, element: loading(<AboutPage />) },
    { path: paths.allTasks, element: loading(<AllTasksPage />) },
    { path: paths.login, element: <GuestOnly>{loading(<LoginPage />)}</GuestOnly> },
    { path: paths.register, element: <GuestOnly>{loading(<RegisterPage />)}</GuestOnly> },
    { path: paths.forgotPassword, element: loading(<ForgotPasswordPage />) },
    { path: paths.resetPassword, element: loading(<ResetPasswordPage />) },
    { path: paths.verifyEmail, element: loading(<VerifyEmailPage />) },
    { path: paths.unsubscribe, element: loading(<UnsubscribePage />) },
    { path: "*", element: <NotFoundPage /> },
  ]),
  // Pathless, so /profile sits in the dashboard's layout beside the /dashboard pages.
  layout({ element: <RequireUser>{loading(<DashboardLayout />)}</RequireUser> }, [
    { path: dashboard.root, element: <RoleHome /> },
    { path: paths.profile, element: loading(<ProfilePage />) },
    { path: dashboard.statement, element: loading(<StatementPage />) },
    { path: dashboard.notifications, element: loading(<NotificationsPage />) },
    ...dashboardPages.map((page) => ({ path: page.path, element: forRole(page.role, page.element) })),
  ]),
];
