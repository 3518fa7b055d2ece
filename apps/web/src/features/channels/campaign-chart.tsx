import type { TCampaignTimeline } from '@switchboard/core';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartTooltip } from '../../components/chart-tooltip';

const SERIES = [
  ['sent', 'Sent', 'var(--color-primary)'],
  ['delivered', 'Delivered', '#16a34a'],
  ['failed', 'Failed', '#dc2626'],
  ['replied', 'Replied', '#7c3aed'],
] as const;

/** Lines over time, one per series ([data key, name, colour]), read along `xKey`. */
export const SeriesChart = ({
  label,
  data,
  xKey,
  series,
}: {
  label: string;
  data: object[];
  xKey: string;
  series: readonly (readonly [string, string, string])[];
}) => (
  <figure aria-label={label} className="h-56 w-full min-w-0 overflow-hidden">
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
        <XAxis dataKey={xKey} stroke="var(--muted)" fontSize={12} />
        <YAxis stroke="var(--muted)" fontSize={12} width={40} allowDecimals={false} />
        <Tooltip content={<ChartTooltip />} />
        <Legend formatter={(value) => <span style={{ color: 'var(--foreground)' }}>{value}</span>} />
        {series.map(([key, name, color]) => (
          <Line
            key={key}
            type="monotone"
            dataKey={key}
            name={name}
            stroke={color}
            dot={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  </figure>
);

/** Sent, delivered, failed and replied per minute. */
export const CampaignChart = ({ timeline }: { timeline: TCampaignTimeline }) => {
  if (!timeline.points.length) return <p className="text-sm text-muted">Nothing sent yet.</p>;
  const data = timeline.points.map((point) => ({ ...point, minute: point.minute.slice(11, 16) }));
  return <SeriesChart label="Messages per minute" data={data} xKey="minute" series={SERIES} />;
};
