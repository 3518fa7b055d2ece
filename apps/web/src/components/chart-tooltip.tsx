/** A recharts tooltip in the page's own text colour (series colours are too light or dark for one theme). */
export const ChartTooltip = ({
  active,
  payload,
  label,
}: {
  active?: boolean;
  payload?: { name?: string; value?: number; color?: string }[];
  label?: string;
}) =>
  active && payload?.length ? (
    <div className="rounded-lg border border-border bg-surface px-3 py-2 text-xs text-foreground">
      <p className="font-semibold">{label}</p>
      {payload.map((item) => (
        <p key={item.name} className="flex items-center gap-2">
          <span aria-hidden="true" className="inline-block h-2 w-2 rounded-full" style={{ background: item.color }} />
          {item.name}: {item.value}
        </p>
      ))}
    </div>
  ) : null;
