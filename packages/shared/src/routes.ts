/**
 * Every page of the web app, by its path: the web app's router, menus and links use these,
 * and so does the server where a notification links to a page. Paths with an id are functions
 * (the router passes ":id" to get the pattern).
 */
export const paths = {
  home: "/",
  about: "/about",
  allTasks: "/allTask",
  login: "/login",
  register: "/register",
  forgotPassword: "/forgot-password",
  resetPassword: "/reset-password",
  verifyEmail: "/verify-email",
  unsubscribe: "/unsubscribe",
  profile: "/profile",
  /** The API's own reference (Swagger UI, served by the server), for programs' authors. */
  apiDocs: "/api/docs",
  dashboard: {
    root: "/dashboard",
    workerHome: "/dashboard/workerHome",
    taskList: "/dashboard/task-list",
    taskDetails: (id: string) => `/dashboard/task-details/${id}`,
    mySubmissions: "/dashboard/my-submissions",
    hiddenBuyers: "/dashboard/hidden-buyers",
    withdrawals: "/dashboard/withdrawals",
    statement: "/dashboard/statement",
    notifications: "/dashboard/notifications",
    buyerHome: "/dashboard/BuyersHome",
    addTasks: "/dashboard/add-tasks",
    myTasks: "/dashboard/my-tasks",
    blockedWorkers: "/dashboard/blocked-workers",
    developer: "/dashboard/developer",
    purchaseCoin: "/dashboard/purchase-coin",
    paymentProcess: "/dashboard/payment/process",
    paymentSuccess: "/dashboard/payment/success",
    paymentHistory: "/dashboard/payment/history",
    adminHome: "/dashboard/adminHome",
    manageUsers: "/dashboard/manage-users",
    manageTasks: "/dashboard/manage-task",
    appeals: "/dashboard/appeals",
    adminWithdrawals: "/dashboard/admin-withdrawals",
  },
} as const;
