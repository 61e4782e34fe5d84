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
const frame = [
  <CartesianGrid key="grid" strokeDasharray="3 3" stroke="#e5e7eb" />,
  <XAxis key="x" dataKey="date" tickFormatter={shortDate} fontSize={12} minTickGap={20} />,
  <YAxis key="y" fontSize={12} allowDecimals={false} />,
  <Tooltip key="tooltip" />,
  <Legend key="legend" />,
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
            stroke="#0f766e"
            strokeWidth={2}
            dot={false}
          />
          <Line
            type="monotone"
            dataKey="coins_paid_out"
            name="Paid out"
            stroke="#d97706"
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
          <Bar dataKey="tasks_created" name="Tasks" fill="#7c3aed" />
          <Bar dataKey="submissions" name="Submissions" fill="#0ea5e9" />
        </BarChart>
      </ChartFigure>
    </div>
  );
}
