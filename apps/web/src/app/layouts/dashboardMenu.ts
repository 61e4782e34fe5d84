import type { Role } from "@taskmint/shared";

/** The spec's role menu, exactly. */
export const DASHBOARD_MENU: Record<Role, { label: string; to: string }[]> = {
  worker: [
    { label: "Worker-Home", to: "/dashboard/workerHome" },
    { label: "TaskList", to: "/dashboard/task-list" },
    { label: "My Submissions", to: "/dashboard/my-submissions" },
    { label: "Withdrawals", to: "/dashboard/withdrawals" },
  ],
  buyer: [
    { label: "Buyer-Home", to: "/dashboard/BuyersHome" },
    { label: "Add new Tasks", to: "/dashboard/add-tasks" },
    { label: "My Task's", to: "/dashboard/my-tasks" },
    { label: "Purchase Coin", to: "/dashboard/purchase-coin" },
    { label: "Payment History", to: "/dashboard/payment/history" },
  ],
  admin: [
    { label: "Admin-Home", to: "/dashboard/adminHome" },
    { label: "Manage Users", to: "/dashboard/manage-users" },
    { label: "Manage Task", to: "/dashboard/manage-task" },
  ],
};
