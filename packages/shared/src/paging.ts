import { z } from "zod";

export const MAX_PAGE_LIMIT = 100;

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(20),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
  });

export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  total: number;
}

/**
 * Lists that grow with the platform (every task, every user) page by keyset: `cursor` is the
 * `next_cursor` of the page before. `total` counts at most LARGE_LIST_COUNT_CAP rows, with
 * `total_capped` set when there are more; page numbers without a cursor reach that far only.
 */
export const LARGE_LIST_COUNT_CAP = 1000;

/** A cursor is the base64url text the server wrote; anything else is refused before it is decoded. */
export const cursorSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,300}$/, "Invalid cursor")
  .optional();

export const largePageQuerySchema = pageQuerySchema.extend({ cursor: cursorSchema });
export type LargePageQuery = z.infer<typeof largePageQuerySchema>;

export const largePageOf = <T extends z.ZodType>(item: T) =>
  pageOf(item).extend({ next_cursor: z.string().nullable(), total_capped: z.boolean() });

export interface LargePage<T> extends Page<T> {
  next_cursor: string | null;
  total_capped: boolean;
}

export const cursorPageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), next_cursor: z.string().nullable() });

export interface CursorPage<T> {
  items: T[];
  next_cursor: string | null;
}
