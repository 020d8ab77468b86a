/**
 * Charts drawn by the console as SVG from the numbers the service computed: bars (weekly volume), lines (an
 * exercise's load over time), paired bars (goal distribution against target, with the debt). Each chart has a
 * text alternative (role="img" + aria-label) and a data table for screen readers; time runs left to right in
 * every language, as numbers do.
 */
import { h } from './dom.js';
import { num } from './member-cards.js';

const NS = 'http://www.w3.org/2000/svg';

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}

function text(x, y, value, attrs = {}) {
  const node = svg('text', { x, y, ...attrs });
  node.textContent = value;
  return node;
}

function niceMax(value) {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((s) => s * power >= value) ?? 10;
  return step * power;
}

/** The chart's numbers for screen readers. A table is as wide as its cells whatever its own size says, so the
 * visually hidden box is a div around it (a hidden table alone made a phone's Charts tab scroll sideways). */
function table(caption, head, rows) {
  return h('div', { class: 'sr-only' }, h('table', { class: 'chart-table' }, h('caption', { text: caption }),
    h('thead', {}, h('tr', {}, head.map((cell) => h('th', { scope: 'col', text: cell })))),
    h('tbody', {}, rows.map((row) => h('tr', {}, row.map((cell) => h('td', { text: cell })))))));
}

/** Vertical bars: points [{label, value, title}]. */
export function barChart({ testid, caption, points, format = num, height = 170 }) {
  const width = 320;
  const pad = { top: 16, bottom: 26, left: 6, right: 6 };
  const max = niceMax(Math.max(0, ...points.map((p) => p.value)));
  const slot = (width - pad.left - pad.right) / Math.max(points.length, 1);
  const plot = height - pad.top - pad.bottom;
  const every = Math.ceil(points.length / 6); // a label every few bars, the last always, never two overlapping
  const bars = points.map((p, i) => {
    const bh = max ? (plot * p.value) / max : 0;
    const x = pad.left + i * slot + slot * 0.15;
    return svg('g', { class: 'chart-bar', 'data-value': p.value },
      svg('rect', { x, y: pad.top + plot - bh, width: slot * 0.7, height: Math.max(bh, p.value > 0 ? 1 : 0), rx: 2 },
        svg('title', {}, `${p.title ?? p.label}: ${format(p.value)}`)),
      (i % every === 0 && points.length - 1 - i >= every) || i === points.length - 1
        ? text(x + slot * 0.35, height - 8, p.label, { 'text-anchor': 'middle', class: 'chart-axis' }) : null);
  });
  const top = text(pad.left, 11, format(max), { class: 'chart-axis' });
  return h('figure', { class: 'chart', testid },
    h('div', { class: 'chart-svg', dir: 'ltr' }, svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img',
      'aria-label': caption, preserveAspectRatio: 'none' },
    svg('line', { x1: pad.left, x2: width - pad.right, y1: pad.top + plot, y2: pad.top + plot, class: 'chart-base' }),
    svg('line', { x1: pad.left, x2: width - pad.right, y1: pad.top, y2: pad.top, class: 'chart-grid' }), top, bars)),
    table(caption, ['', ''], points.map((p) => [p.title ?? p.label, format(p.value)])));
}

/** Lines over time: series [{name, className, points: [{x (0..1), y, label}], line?, dots?}] (`line: false` draws
 * only the dots, `dots: false` only the line). */
export function lineChart({ testid, caption, series, xLabels = [], format = num, height = 180 }) {
  const width = 320;
  const pad = { top: 16, bottom: 26, left: 8, right: 8 };
  const values = series.flatMap((s) => s.points.map((p) => p.y)).filter((v) => v !== null && v !== undefined);
  const lo = values.length ? Math.min(...values) : 0;
  const hi = values.length ? Math.max(...values) : 1;
  const span = hi - lo || Math.max(1, hi * 0.1);
  const min = Math.max(0, lo - span * 0.15);
  const max = hi + span * 0.15;
  const plot = height - pad.top - pad.bottom;
  const X = (x) => pad.left + x * (width - pad.left - pad.right);
  const Y = (y) => pad.top + plot - ((y - min) / (max - min)) * plot;
  const lines = series.map((s) => {
    const pts = s.points.filter((p) => p.y !== null && p.y !== undefined);
    return svg('g', { class: `chart-line ${s.className ?? ''}` },
      pts.length > 1 && s.line !== false
        ? svg('polyline', { points: pts.map((p) => `${X(p.x).toFixed(1)},${Y(p.y).toFixed(1)}`).join(' ') }) : null,
      s.dots === false ? null
        : pts.map((p) => svg('circle', { cx: X(p.x), cy: Y(p.y), r: 3 }, svg('title', {}, `${p.label}: ${format(p.y)}`))));
  });
  return h('figure', { class: 'chart', testid },
    h('div', { class: 'chart-svg', dir: 'ltr' }, svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': caption },
      svg('line', { x1: pad.left, x2: width - pad.right, y1: pad.top + plot, y2: pad.top + plot, class: 'chart-base' }),
      text(pad.left, 11, format(Math.round(max * 10) / 10), { class: 'chart-axis' }),
      text(pad.left, pad.top + plot - 3, format(Math.round(min * 10) / 10), { class: 'chart-axis' }),
      xLabels.map((l) => text(X(l.x), height - 8, l.label, { 'text-anchor': l.x > 0.9 ? 'end' : l.x < 0.1 ? 'start' : 'middle',
                                                             class: 'chart-axis' })),
      lines)),
    h('figcaption', { class: 'chart-legend' }, series.map((s) => h('span', { class: `legend ${s.className ?? ''}`, dir: 'auto', text: s.name }))),
    table(caption, ['', ...series.map((s) => s.name)],
      (series[0]?.points ?? []).map((p, i) => [p.label, ...series.map((s) => format(s.points[i]?.y ?? ''))])));
}

/** Goals against their targets: rows [{name, targetPct, actualPct, debtPct}] as paired horizontal bars. */
export function goalBars({ testid, caption, rows, debtText }) {
  const max = Math.max(1, ...rows.flatMap((r) => [r.targetPct, r.actualPct]));
  return h('figure', { class: 'chart goal-chart', testid, role: 'group', 'aria-label': caption },
    h('ul', { class: 'goal-rows' }, rows.map((r) => h('li', { class: 'goal-row', testid: 'goal-row', 'data-goal': r.key ?? r.name,
                                                              'data-debt': String(r.debtPct) },
      h('span', { class: 'goal-name', dir: 'auto', text: r.name }),
      h('span', { class: 'goal-bars', 'aria-hidden': 'true' },
        h('span', { class: 'goal-bar target', style: `inline-size: ${(100 * r.targetPct) / max}%` }),
        h('span', { class: 'goal-bar actual', style: `inline-size: ${(100 * r.actualPct) / max}%` })),
      h('span', { class: `goal-debt ${r.debtPct > 0.5 ? 'under' : r.debtPct < -0.5 ? 'over' : 'even'}`, text: debtText(r) })))));
}
