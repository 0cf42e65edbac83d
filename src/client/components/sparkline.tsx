/** A tiny line of daily values (a release's sessions per day), drawn as SVG without axes. */
export function Sparkline({ values, label, className }: { values: number[]; label: string; className?: string }) {
  const width = 96;
  const height = 24;
  const top = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const points = values.map((value, index) => `${(index * step).toFixed(1)},${(height - 2 - (value / top) * (height - 4)).toFixed(1)}`).join(" ");
  return (
    <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={label} className={className} data-testid="sparkline">
      <title>{label}</title>
      {values.length > 0 ? <polyline points={points} fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinejoin="round" /> : null}
    </svg>
  );
}
