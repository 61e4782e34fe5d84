import { sql } from "drizzle-orm";
import { boolean, customType, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { TASK_CATEGORIES, type TaskCategory } from "@taskmint/shared";
import { userReference } from "./auth.ts";
import { notifications } from "./money.ts";

// Issue 36 (decision 037): a worker's saved searches, and the alerts their matches fold into.

/** A parsed full-text query, kept so that matching a posted task does not parse it again. */
const tsquery = customType<{ data: string }>({ dataType: () => "tsquery" });

const categoryIds = TASK_CATEGORIES.map((category) => category.id) as [TaskCategory, ...TaskCategory[]];

export const savedSearches = pgTable(
  "saved_searches",
  {
    id: text("id").primaryKey(),
    workerId: userReference("worker_id"),
    name: text("name").notNull(),
    /** The words as the worker typed them, null for none. */
    q: text("q"),
    /** The words as the task browsers read them (websearch_to_tsquery, English), null for none. */
    query: tsquery("query"),
    /**
     * The words' lexemes when a matching task must contain at least one of them, for the GIN
     * index that finds a posted task's candidate searches; null when the words alone say nothing
     * a task must contain (none, or only words it must not): such searches are read by category.
     */
    lexemes: text("lexemes").array(),
    category: text("category", { enum: categoryIds }),
    minReward: integer("min_reward"),
    alertBell: boolean("alert_bell").notNull(),
    alertMail: boolean("alert_mail").notNull(),
    alertPush: boolean("alert_push").notNull(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, precision: 3 }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    index("saved_searches_worker_idx").on(table.workerId, table.createdAt),
    // Without a pending list (fastupdate): every posting's job probes this index, and a search
    // must read the whole pending list, megabytes without autovacuum (PGlite) to empty it;
    // searches are saved rarely, so their inserts update the index at once.
    index("saved_searches_lexemes_idx")
      .using("gin", table.lexemes)
      .with({ fastupdate: false })
      .where(sql`${table.lexemes} is not null`),
    index("saved_searches_wordless_idx")
      .on(table.category, table.minReward)
      .where(sql`${table.lexemes} is null`),
  ],
);

/**
 * One alert of a saved search: the matches of one fold window (SAVED_SEARCH_FOLD_MINUTES from
 * `started_at`), counted into one bell notification, one digest mail and one push tag.
 */
export const savedSearchAlerts = pgTable(
  "saved_search_alerts",
  {
    id: text("id").primaryKey(),
    savedSearchId: text("saved_search_id")
      .notNull()
      .references(() => savedSearches.id, { onDelete: "cascade" }),
    startedAt: timestamp("started_at", { withTimezone: true, precision: 3 }).notNull(),
    matchCount: integer("match_count").notNull(),
    /** The window's first match, which a single-match alert opens. */
    taskId: text("task_id").notNull(),
    taskTitle: text("task_title").notNull(),
    /** The bell's notification, null when the search has the bell off. */
    notificationId: text("notification_id").references(() => notifications.id, { onDelete: "set null" }),
  },
  (table) => [index("saved_search_alerts_search_idx").on(table.savedSearchId, table.startedAt)],
);
