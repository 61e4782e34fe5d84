import type { ReactNode } from "react";

export function StatCard({ label, value, icon }: { label: string; value: ReactNode; icon?: ReactNode }) {
  return (
    <div className="stat rounded-box bg-base-100 shadow-sm">
      {icon && <div className="stat-figure text-primary">{icon}</div>}
      <div className="stat-title">{label}</div>
      <div className="stat-value text-2xl sm:text-3xl">{value}</div>
    </div>
  );
}
