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
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { ErrorState } from "../../../components/ui/States.tsx";
import { adminQueries } from "../queries.ts";

const shortDate = (iso: string) => iso.slice(5);

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
      <figure className="rounded-box bg-base-100 p-4 shadow-sm">
        <figcaption className="mb-2 font-semibold">Coins issued and paid out per day</figcaption>
        <div
          className="h-64"
          role="img"
          aria-label="Line chart of coins issued and paid out per day over the last 30 days"
        >
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={data} margin={{ left: -20, right: 8 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
              <XAxis dataKey="date" tickFormatter={shortDate} fontSize={12} minTickGap={20} />
              <YAxis fontSize={12} allowDecimals={false} />
              <Tooltip />
              <Legend />
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
          </ResponsiveContainer>
        </div>
      </figure>
      <figure className="rounded-box bg-base-100 p-4 shadow-sm">
        <figcaption className="mb-2 font-semibold">Tasks and submissions per day</figcaption>
        <div
          className="h-64"
          role="img"
          aria-label="Bar chart of tasks posted and submissions made per day over the last 30 days"
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data} margin={{ left: -20, right: 8 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
              <XAxis dataKey="date" tickFormatter={shortDate} fontSize={12} minTickGap={20} />
              <YAxis fontSize={12} allowDecimals={false} />
              <Tooltip />
              <Legend />
              <Bar dataKey="tasks_created" name="Tasks" fill="#7c3aed" />
              <Bar dataKey="submissions" name="Submissions" fill="#0ea5e9" />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </figure>
    </div>
  );
}
