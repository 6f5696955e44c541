import { formatDay } from './format';

export interface ChartDay {
  day: string;
  views: number;
  clicks: number;
}

const WIDTH = 720;
const HEIGHT = 200;
const AXIS = 24;

/** A round ceiling for the scale: 1, 2 or 5 times a power of ten, so the top line reads well. */
function niceMax(value: number): number {
  if (value <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((each) => each * power >= value) ?? 10;
  return step * power;
}

/**
 * Views (light bars) and clicks (dark bars in front) for each day, drawn as SVG by hand: a chart
 * library would be the largest part of this screen. The SVG is a picture for sighted readers;
 * `describedBy` names the table that holds the same numbers for everyone else.
 */
export function DailyChart({ days, describedBy }: { days: readonly ChartDay[]; describedBy: string }) {
  const top = niceMax(Math.max(...days.map((each) => Math.max(each.views, each.clicks)), 0));
  const slot = WIDTH / Math.max(days.length, 1);
  const barWidth = Math.max(slot * 0.7, 1);
  const plotHeight = HEIGHT - AXIS;
  const y = (value: number) => plotHeight - (value / top) * plotHeight;
  const first = days[0];
  const last = days.at(-1);
  return (
    <figure className="stats-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`Views and clicks by day, ${first ? formatDay(first.day) : ''} to ${last ? formatDay(last.day) : ''}`}
        aria-describedby={describedBy}
        preserveAspectRatio="none"
      >
        <line className="stats-chart-grid" x1={0} x2={WIDTH} y1={y(top)} y2={y(top)} />
        <line className="stats-chart-grid" x1={0} x2={WIDTH} y1={y(top / 2)} y2={y(top / 2)} />
        <line className="stats-chart-axis" x1={0} x2={WIDTH} y1={plotHeight} y2={plotHeight} />
        {days.map((each, index) => {
          const x = index * slot + (slot - barWidth) / 2;
          return (
            <g key={each.day}>
              <rect
                className="stats-chart-views"
                x={x}
                width={barWidth}
                y={y(each.views)}
                height={plotHeight - y(each.views)}
              />
              <rect
                className="stats-chart-clicks"
                x={x + barWidth / 4}
                width={barWidth / 2}
                y={y(each.clicks)}
                height={plotHeight - y(each.clicks)}
              />
            </g>
          );
        })}
      </svg>
      <figcaption className="stats-chart-caption">
        <span className="stats-chart-scale">
          Top line: {top} · middle line: {top / 2}
        </span>
        <span className="stats-chart-key">
          <span className="stats-key stats-key--views" aria-hidden="true" /> Views
          <span className="stats-key stats-key--clicks" aria-hidden="true" /> Clicks
        </span>
      </figcaption>
    </figure>
  );
}
