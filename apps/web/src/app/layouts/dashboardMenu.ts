import type { Role } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";

/** The spec's role menu, exactly. */
export const DASHBOARD_MENU: Record<Role, { label: string; to: string }[]> = {
  worker: [
    { label: "Worker-Home", to: paths.dashboard.workerHome },
    { label: "TaskList", to: paths.dashboard.taskList },
    { label: "My Submissions", to: paths.dashboard.mySubmissions },
    { label: "Withdrawals", to: paths.dashboard.withdrawals },
  ],
  buyer: [
    { label: "Buyer-Home", to: paths.dashboard.buyerHome },
    { label: "Add new Tasks", to: paths.dashboard.addTasks },
    { label: "My Task's", to: paths.dashboard.myTasks },
    { label: "Purchase Coin", to: paths.dashboard.purchaseCoin },
    { label: "Payment History", to: paths.dashboard.paymentHistory },
  ],
  admin: [
    { label: "Admin-Home", to: paths.dashboard.adminHome },
    { label: "Manage Users", to: paths.dashboard.manageUsers },
    { label: "Manage Task", to: paths.dashboard.manageTasks },
  ],
};
