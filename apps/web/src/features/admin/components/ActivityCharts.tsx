import { useQuery } from "@tanstack/react-query";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { ReactElement } from "react";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { ErrorState } from "../../../components/ui/States.tsx";
import { adminQueries } from "../queries.ts";

const shortDate = (iso: string) => iso.slice(5);

// The same grid, axes, tooltip and legend on both charts (a list: Recharts reads its direct children).
// Colours are the theme's, so the charts read as well in the dark theme.
const tick = { fill: "var(--color-base-content)" };
const frame = [
  <CartesianGrid key="grid" strokeDasharray="3 3" stroke="var(--color-base-300)" />,
  <XAxis key="x" dataKey="date" tickFormatter={shortDate} fontSize={12} minTickGap={20} tick={tick} />,
  <YAxis key="y" fontSize={12} allowDecimals={false} tick={tick} />,
  <Tooltip
    key="tooltip"
    contentStyle={{ background: "var(--color-base-100)", borderColor: "var(--color-base-300)" }}
  />,
  // Series colours mark the lines; the names themselves are in the text colour, for contrast.
  <Legend key="legend" formatter={(name: string) => <span className="text-base-content">{name}</span>} />,
];
const margin = { left: -20, right: 8 };

function ChartFigure({
  caption,
  description,
  children,
}: {
  caption: string;
  /** What the chart shows, for screen readers. */
  description: string;
  children: ReactElement;
}) {
  return (
    <figure className="rounded-box bg-base-100 p-4 shadow-sm">
      <figcaption className="mb-2 font-semibold">{caption}</figcaption>
      <div className="h-64" role="img" aria-label={description}>
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

/** Coins in and out, and marketplace activity, over the last 30 days. */
export function ActivityCharts() {
  const activity = useQuery(adminQueries.dailyActivity(30));
  if (activity.isPending) return <Spinner label="Loading charts" />;
  if (activity.isError)
    return (
      <ErrorState message="Failed to fetch dashboard statistics" onRetry={() => void activity.refetch()} />
    );
  const data = activity.data;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <ChartFigure
        caption="Coins issued and paid out per day"
        description="Line chart of coins issued and paid out per day over the last 30 days"
      >
        <LineChart data={data} margin={margin}>
          {frame}
          <Line
            type="monotone"
            dataKey="coins_issued"
            name="Issued"
            stroke="var(--color-primary)"
            strokeWidth={2}
            dot={false}
          />
          <Line
            type="monotone"
            dataKey="coins_paid_out"
            name="Paid out"
            stroke="var(--color-warning)"
            strokeWidth={2}
            dot={false}
          />
        </LineChart>
      </ChartFigure>
      <ChartFigure
        caption="Tasks and submissions per day"
        description="Bar chart of tasks posted and submissions made per day over the last 30 days"
      >
        <BarChart data={data} margin={margin}>
          {frame}
          <Bar dataKey="tasks_created" name="Tasks" fill="var(--color-secondary)" />
          <Bar dataKey="submissions" name="Submissions" fill="var(--color-info)" />
        </BarChart>
      </ChartFigure>
    </div>
  );
}
