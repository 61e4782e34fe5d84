import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Page, PageQuery, Role } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { buyerBlocks, hiddenBuyers, users } from "../../db/schema/index.ts";
import { notFound } from "../../lib/errors.ts";
import { offsetPage } from "../../lib/paging.ts";

/**
 * Rule R23's two lists of people one side keeps away, as one mechanism: a buyer's blocked
 * workers (with a private note) and a worker's hidden buyers. Each list is its own table (a
 * block gates reserving and submitting, a hidden buyer only the worker's view), both keyed by
 * the buyer and the worker.
 */
interface KeptAwayList {
  table: typeof buyerBlocks | typeof hiddenBuyers;
  /** Who keeps the list, and whom it keeps away. */
  owner: Role;
  other: Role;
  /** Names for a 404: the person looked for, and the entry. */
  otherName: string;
  entryName: string;
  /** The private note a block carries; null for a list without one. */
  note: typeof buyerBlocks.note | null;
  /** Stores an entry; storing it again replaces the note, or keeps the entry as it was. */
  store: (db: Database, entry: StoredEntry) => Promise<unknown>;
}

interface StoredEntry {
  buyerId: string;
  workerId: string;
  note: string | null;
  createdAt: Date;
}

export const blockedWorkers: KeptAwayList = {
  table: buyerBlocks,
  owner: "buyer",
  other: "worker",
  otherName: "Worker",
  entryName: "Block",
  note: buyerBlocks.note,
  store: (db, entry) =>
    db
      .insert(buyerBlocks)
      .values(entry)
      .onConflictDoUpdate({ target: [buyerBlocks.buyerId, buyerBlocks.workerId], set: { note: entry.note } }),
};

export const hiddenBuyerList: KeptAwayList = {
  table: hiddenBuyers,
  owner: "worker",
  other: "buyer",
  otherName: "Buyer",
  entryName: "Hidden buyer",
  note: null,
  store: (db, { buyerId, workerId, createdAt }) =>
    db.insert(hiddenBuyers).values({ buyerId, workerId, createdAt }).onConflictDoNothing(),
};

/** An entry of a list: the person kept away, the owner's note, and since when. */
export interface KeptAwayEntry {
  userId: string;
  userName: string;
  note: string | null;
  createdAt: Date;
}

const columnOf = (list: KeptAwayList, role: Role) =>
  role === "buyer" ? list.table.buyerId : list.table.workerId;

const entries = (db: Database, list: KeptAwayList) =>
  db
    .select({
      userId: columnOf(list, list.other),
      userName: users.name,
      note: list.note ?? sql<string | null>`null`,
      createdAt: list.table.createdAt,
    })
    .from(list.table)
    .innerJoin(users, eq(users.id, columnOf(list, list.other)));

const entryOf = (list: KeptAwayList, ownerId: string, otherId: string) =>
  and(eq(columnOf(list, list.owner), ownerId), eq(columnOf(list, list.other), otherId));

/** Puts a live user of the other role on the owner's list (again: see the list's store). */
export async function keepAway(
  db: Database,
  list: KeptAwayList,
  entry: { ownerId: string; otherId: string; note?: string; now: Date },
): Promise<KeptAwayEntry> {
  const [other] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, entry.otherId), eq(users.role, list.other), isNull(users.deletedAt)));
  if (!other) throw notFound(list.otherName);
  await list.store(db, {
    ...(list.owner === "buyer"
      ? { buyerId: entry.ownerId, workerId: other.id }
      : { buyerId: other.id, workerId: entry.ownerId }),
    note: entry.note ? entry.note : null,
    createdAt: entry.now,
  });
  const [row] = await entries(db, list).where(entryOf(list, entry.ownerId, other.id));
  if (!row) throw new Error(`${list.entryName} was not stored`);
  return row;
}

/** Takes a user off the owner's list; answers the entry removed, or 404 when there was none. */
export async function letBack(
  db: Database,
  list: KeptAwayList,
  entry: { ownerId: string; otherId: string },
): Promise<KeptAwayEntry> {
  const [row] = await entries(db, list).where(entryOf(list, entry.ownerId, entry.otherId));
  if (!row) throw notFound(list.entryName);
  await db.delete(list.table).where(entryOf(list, entry.ownerId, entry.otherId));
  return row;
}

/** The owner's list, newest first, each entry as the caller shows it. */
export function keptAwayPage<T>(
  db: Database,
  list: KeptAwayList,
  { ownerId, page, toItem }: { ownerId: string; page: PageQuery; toItem: (entry: KeptAwayEntry) => T },
): Promise<Page<T>> {
  const where = eq(columnOf(list, list.owner), ownerId);
  return offsetPage(db, {
    page,
    table: list.table,
    where,
    rows: entries(db, list)
      .where(where)
      .orderBy(desc(list.table.createdAt), desc(columnOf(list, list.other))),
    toItem,
  });
}
