import type { TUsageLog } from '@switchboard/core';
import { useMemo } from 'react';
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** Credits spent per day, from the usage logs. */
export const UsageChart = ({ logs }: { logs: TUsageLog[] }) => {
  const data = useMemo(() => {
    const byDay = new Map<string, number>();
    for (const log of logs) {
      const day = log.timestamp.slice(0, 10);
      byDay.set(day, (byDay.get(day) ?? 0) + log.cost);
    }
    return [...byDay.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([day, credits]) => ({ day, credits: Math.round(credits * 100) / 100 }));
  }, [logs]);
  if (data.length === 0) return <p className="text-sm text-muted">No usage yet.</p>;
  return (
    <figure aria-label="Credits used per day" className="h-56 w-full min-w-0 overflow-hidden">
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="day" stroke="var(--muted)" fontSize={12} />
          <YAxis stroke="var(--muted)" fontSize={12} width={40} />
          <Tooltip
            contentStyle={{
              background: 'var(--surface)',
              border: '1px solid var(--border)',
              color: 'var(--foreground)',
            }}
          />
          <Area
            type="monotone"
            dataKey="credits"
            stroke="var(--color-primary)"
            fill="var(--color-primary)"
            fillOpacity={0.25}
          />
        </AreaChart>
      </ResponsiveContainer>
    </figure>
  );
};
