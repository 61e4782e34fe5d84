import type { Role } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";

/** The spec's role menu, its entries in sentence case. */
export const DASHBOARD_MENU: Record<Role, { label: string; to: string }[]> = {
  worker: [
    { label: "Worker home", to: paths.dashboard.workerHome },
    { label: "Task list", to: paths.dashboard.taskList },
    { label: "Saved searches", to: paths.dashboard.savedSearches },
    { label: "My submissions", to: paths.dashboard.mySubmissions },
    { label: "Withdrawals", to: paths.dashboard.withdrawals },
    { label: "Statement", to: paths.dashboard.statement },
    { label: "Hidden buyers", to: paths.dashboard.hiddenBuyers },
  ],
  buyer: [
    { label: "Buyer home", to: paths.dashboard.buyerHome },
    { label: "Add new task", to: paths.dashboard.addTasks },
    { label: "My tasks", to: paths.dashboard.myTasks },
    { label: "Purchase coins", to: paths.dashboard.purchaseCoin },
    { label: "Payment history", to: paths.dashboard.paymentHistory },
    { label: "Statement", to: paths.dashboard.statement },
    { label: "Blocked workers", to: paths.dashboard.blockedWorkers },
    { label: "Developer", to: paths.dashboard.developer },
  ],
  admin: [
    { label: "Admin home", to: paths.dashboard.adminHome },
    { label: "Manage users", to: paths.dashboard.manageUsers },
    { label: "Manage tasks", to: paths.dashboard.manageTasks },
    { label: "Withdrawals", to: paths.dashboard.adminWithdrawals },
    { label: "Appeals", to: paths.dashboard.appeals },
  ],
};
