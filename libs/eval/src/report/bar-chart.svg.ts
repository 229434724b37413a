/** One series (bar colour) of a grouped bar chart. */
export interface BarSeries {
  name: string;
  /** One value per category, in category order. */
  values: readonly number[];
}

/** Options for {@link renderBarChartSvg}. */
export interface BarChartOptions {
  /** Group labels along the x axis (e.g. metric names). */
  categories: readonly string[];
  /** One bar per series in every group (e.g. strategies). */
  series: readonly BarSeries[];
  title?: string;
  /** Top of the y axis (default: the largest value rounded up to a tenth, at least 0.1). */
  maxValue?: number;
  /** Total width in px (default: enough room for every bar, at least 560). */
  width?: number;
  /** Plot height in px, without title and legend (default 240). */
  plotHeight?: number;
}

// Okabe-Ito palette: distinguishable with the common colour-vision deficiencies.
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 2 : 1));
const px = (n: number) => Number(n.toFixed(1));

/**
 * A grouped bar chart as a standalone SVG string (no dependencies): one group per
 * category, one coloured bar per series, y gridlines, value labels when bars are wide
 * enough, hover titles on every bar, and a legend under the plot.
 *
 * @example
 * renderBarChartSvg({
 *   title: 'Overall',
 *   categories: ['P@5', 'R@10', 'MRR'],
 *   series: [{ name: 'task_only', values: [0.2, 0.4, 0.5] }, { name: 'rrf', values: [0.3, 0.6, 0.6] }],
 * }) // '<svg xmlns="http://www.w3.org/2000/svg" ...'
 */
export function renderBarChartSvg(options: BarChartOptions): string {
  const { categories, series, title, plotHeight = 240 } = options;
  for (const s of series) {
    if (s.values.length !== categories.length) throw new Error(`Bar series "${s.name}" has ${s.values.length} values for ${categories.length} categories`);
  }
  const finite = series.flatMap((s) => s.values).filter((v) => Number.isFinite(v));
  const maxValue = options.maxValue ?? Math.max(0.1, Math.ceil(Math.max(0, ...finite) * 10) / 10);
  const barWidth = Math.max(6, Math.min(28, 120 / Math.max(1, series.length)));
  const groupGap = 24;
  const marginLeft = 48;
  const marginRight = 16;
  const groupWidth = series.length * barWidth + groupGap;
  const width = options.width ?? Math.max(560, marginLeft + marginRight + categories.length * groupWidth);
  const plotWidth = width - marginLeft - marginRight;
  const slot = plotWidth / Math.max(1, categories.length);
  const top = title ? 36 : 14;
  const axisBottom = top + plotHeight;

  // Legend rows, wrapped to the chart width.
  const legendItems: Array<{ x: number; row: number; name: string; color: string }> = [];
  let lx = marginLeft;
  let row = 0;
  series.forEach((s, i) => {
    const itemWidth = 18 + s.name.length * 7 + 16;
    if (lx + itemWidth > width - marginRight && lx > marginLeft) {
      row += 1;
      lx = marginLeft;
    }
    legendItems.push({ x: lx, row, name: s.name, color: PALETTE[i % PALETTE.length] });
    lx += itemWidth;
  });
  const legendTop = axisBottom + 34;
  const height = legendTop + (row + 1) * 20 + 6;
  const y = (v: number) => axisBottom - (Math.max(0, Math.min(v, maxValue)) / maxValue) * plotHeight;

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${px(width)}" height="${px(height)}" viewBox="0 0 ${px(width)} ${px(height)}" role="img" aria-label="${esc(title ?? 'bar chart')}" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif">`,
  );
  parts.push(`<rect width="100%" height="100%" fill="#ffffff"/>`);
  if (title) parts.push(`<text x="${px(width / 2)}" y="22" text-anchor="middle" font-size="15" font-weight="600" fill="#222">${esc(title)}</text>`);
  const ticks = 5;
  for (let i = 0; i <= ticks; i++) {
    const v = (maxValue * i) / ticks;
    const ty = px(y(v));
    parts.push(`<line x1="${marginLeft}" x2="${px(width - marginRight)}" y1="${ty}" y2="${ty}" stroke="${i === 0 ? '#444' : '#e3e3e3'}" stroke-width="1"/>`);
    parts.push(`<text x="${marginLeft - 6}" y="${px(ty + 4)}" text-anchor="end" font-size="11" fill="#555">${fmt(Number(v.toFixed(3)))}</text>`);
  }
  categories.forEach((category, ci) => {
    const groupStart = marginLeft + ci * slot + (slot - series.length * barWidth) / 2;
    series.forEach((s, si) => {
      const value = s.values[ci];
      const x = groupStart + si * barWidth;
      const color = PALETTE[si % PALETTE.length];
      const h = Number.isFinite(value) ? axisBottom - y(value) : 0;
      parts.push(
        `<rect x="${px(x + 1)}" y="${px(axisBottom - h)}" width="${px(barWidth - 2)}" height="${px(h)}" fill="${color}"><title>${esc(`${s.name} · ${category}: ${Number.isFinite(value) ? value.toFixed(3) : 'n/a'}`)}</title></rect>`,
      );
      if (barWidth >= 22 && Number.isFinite(value)) {
        parts.push(`<text x="${px(x + barWidth / 2)}" y="${px(axisBottom - h - 4)}" text-anchor="middle" font-size="9" fill="#333">${value.toFixed(2)}</text>`);
      }
    });
    parts.push(`<text x="${px(marginLeft + ci * slot + slot / 2)}" y="${px(axisBottom + 18)}" text-anchor="middle" font-size="12" fill="#222">${esc(category)}</text>`);
  });
  for (const item of legendItems) {
    const ly = legendTop + item.row * 20;
    parts.push(`<rect x="${px(item.x)}" y="${px(ly - 10)}" width="12" height="12" fill="${item.color}"/>`);
    parts.push(`<text x="${px(item.x + 17)}" y="${px(ly)}" font-size="12" fill="#222">${esc(item.name)}</text>`);
  }
  parts.push('</svg>');
  return parts.join('\n');
}
