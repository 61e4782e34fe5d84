import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { BatchPreview as Preview } from "@taskmint/shared";
import { BatchPreview } from "./BatchPreview.tsx";

const row = (n: number) => ({
  row: n,
  task_title: `Label photo ${n}`,
  payable_amount: 2,
  required_workers: 3,
  completion_date: "2030-01-31",
  category: "data_entry" as const,
  cost: 6,
});

const preview = (overrides: Partial<Preview> = {}): Preview => ({
  rows: 2,
  errors: [],
  total_cost: 12,
  preview: [row(1), row(2)],
  ...overrides,
});

describe("a batch's dry run as the buyer sees it", () => {
  it("shows the rows to post, the cost and the coins, and no alert when the coins cover it", () => {
    render(<BatchPreview preview={preview()} coins={12} />);
    // The cost and the coins, side by side.
    expect(screen.getAllByText("12 coins", { selector: "dd" })).toHaveLength(2);
    expect(screen.getAllByRole("row")).toHaveLength(3);
    expect(screen.getByText("Label photo 2")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("names each problem by row and field (row 0 is the file), and shows no rows to post", () => {
    render(
      <BatchPreview
        preview={preview({
          errors: [
            { row: 0, field: "file", message: "The header row has no task_title column" },
            { row: 2, field: "payable_amount", message: "Pay per worker must be at least 1 coin" },
          ],
        })}
        coins={50}
      />,
    );
    expect(screen.getByRole("alert").textContent).toContain("2 problems");
    const rows = screen.getAllByRole("row").slice(1);
    expect(rows).toHaveLength(2);
    expect(
      within(rows[0]!)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["File", "file", "The header row has no task_title column"]);
    expect(within(rows[1]!).getAllByRole("cell")[1]!.textContent).toBe("payable_amount");
    expect(screen.queryByText("Label photo 1")).toBeNull();
  });

  it("says how many coins are missing when the batch costs one more than the buyer has", () => {
    render(<BatchPreview preview={preview()} coins={11} />);
    expect(screen.getByRole("alert").textContent).toContain("costs 1 coin more than you have");
  });

  it("tells when only the first rows are shown", () => {
    render(<BatchPreview preview={preview({ rows: 120, total_cost: 720 })} coins={1000} />);
    expect(screen.getByText(/The first 2 rows are shown; all 120 are posted/)).toBeTruthy();
  });
});
