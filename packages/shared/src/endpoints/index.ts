import type { Endpoint } from "../endpoint.ts";
import { trustEndpoints } from "./trust.ts";
import { tasksEndpoints } from "./tasks.ts";
import { submissionsEndpoints } from "./submissions.ts";
import { reservationsEndpoints } from "./reservations.ts";
import { PICTURE_WIDTHS, uploadsEndpoints } from "./uploads.ts";
import { statsEndpoints } from "./stats.ts";
import { authEndpoints } from "./auth.ts";
import { usersEndpoints } from "./users.ts";
import { sessionsEndpoints } from "./sessions.ts";
import { healthEndpoints } from "./health.ts";
import { notificationsEndpoints } from "./notifications.ts";
import { adminEndpoints } from "./admin.ts";
import { withdrawalsEndpoints } from "./withdrawals.ts";
import { paymentsEndpoints } from "./payments.ts";
import { ledgerEndpoints } from "./ledger.ts";
import { appealsEndpoints } from "./appeals.ts";
import { bonusesEndpoints } from "./bonuses.ts";
import { apiKeysEndpoints } from "./api-keys.ts";
import { webhooksEndpoints } from "./webhooks.ts";
import { batchesEndpoints } from "./batches.ts";
import { pushEndpoints, savedSearchesEndpoints } from "./phone.ts";

export { PICTURE_WIDTHS };
export {
  trustEndpoints,
  tasksEndpoints,
  submissionsEndpoints,
  reservationsEndpoints,
  uploadsEndpoints,
  statsEndpoints,
  authEndpoints,
  usersEndpoints,
  sessionsEndpoints,
  healthEndpoints,
  notificationsEndpoints,
  adminEndpoints,
  withdrawalsEndpoints,
  paymentsEndpoints,
  ledgerEndpoints,
  appealsEndpoints,
  bonusesEndpoints,
  apiKeysEndpoints,
  webhooksEndpoints,
  batchesEndpoints,
  savedSearchesEndpoints,
  pushEndpoints,
};

/** Every declared endpoint: the OpenAPI document is completed from these. */
export const allEndpoints: readonly Endpoint[] = [
  ...Object.values(trustEndpoints),
  ...Object.values(tasksEndpoints),
  ...Object.values(submissionsEndpoints),
  ...Object.values(reservationsEndpoints),
  ...Object.values(uploadsEndpoints),
  ...Object.values(statsEndpoints),
  ...Object.values(authEndpoints),
  ...Object.values(usersEndpoints),
  ...Object.values(sessionsEndpoints),
  ...Object.values(healthEndpoints),
  ...Object.values(notificationsEndpoints),
  ...Object.values(adminEndpoints),
  ...Object.values(withdrawalsEndpoints),
  ...Object.values(paymentsEndpoints),
  ...Object.values(ledgerEndpoints),
  ...Object.values(appealsEndpoints),
  ...Object.values(bonusesEndpoints),
  ...Object.values(apiKeysEndpoints),
  ...Object.values(webhooksEndpoints),
  ...Object.values(batchesEndpoints),
  ...Object.values(savedSearchesEndpoints),
  ...Object.values(pushEndpoints),
];
