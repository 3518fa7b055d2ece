import { DASHBOARD_CHANNEL_LABELS, type TConnectionDashboard } from '@switchboard/core';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartTooltip } from '../../components/chart-tooltip';

const COLOURS = ['var(--color-primary)', '#2563eb', '#7c3aed', '#16a34a', '#d97706', '#db2777', '#64748b'];
const DAY_MS = 86_400_000;

/** Messages per day per channel over the last 30 days (stacked bars; days without messages show empty). */
export const MessagesChart = ({ dashboard }: { dashboard: TConnectionDashboard }) => {
  const channels = [...new Set(dashboard.series.map((point) => point.channel))];
  if (!channels.length) return <p className="text-sm text-muted">No messages in the last 30 days.</p>;
  const today = Date.parse(dashboard.periods.today);
  const byDay = new Map<string, Record<string, number | string>>();
  for (let i = 29; i >= 0; i -= 1) {
    const day = new Date(today - i * DAY_MS).toISOString().slice(0, 10);
    byDay.set(day, { day: day.slice(5) });
  }
  for (const point of dashboard.series) {
    const entry = byDay.get(point.day);
    if (entry) entry[point.channel] = point.messages;
  }
  return (
    <figure aria-label="Messages per day per channel" className="h-64 w-full min-w-0 overflow-hidden">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={[...byDay.values()]} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="day" stroke="var(--muted)" fontSize={12} minTickGap={16} />
          <YAxis stroke="var(--muted)" fontSize={12} width={40} allowDecimals={false} />
          <Tooltip content={<ChartTooltip />} cursor={{ fill: 'var(--surface-2)' }} />
          <Legend formatter={(value) => <span style={{ color: 'var(--foreground)' }}>{value}</span>} />
          {channels.map((channel, index) => (
            <Bar
              key={channel}
              dataKey={channel}
              name={DASHBOARD_CHANNEL_LABELS[channel] ?? channel}
              stackId="messages"
              fill={COLOURS[index % COLOURS.length]}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
};
