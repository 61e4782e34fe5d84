import { z } from "zod";

export const MAX_PAGE_LIMIT = 100;

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(20),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), page: z.number().int(), limit: z.number().int(), total: z.number().int() });

export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  total: number;
}

export const cursorPageOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), next_cursor: z.string().nullable() });

export interface CursorPage<T> {
  items: T[];
  next_cursor: string | null;
}
