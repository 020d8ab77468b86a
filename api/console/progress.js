/**
 * Progress: the history by day with PR badges, the charts (weekly volume, an exercise's load over time, goal
 * distribution against target), and the recovery of all 16 muscles. Every number comes from the service
 * (…/trainer/progress/*, /distribution, /recovery); this only draws it, in the UI language.
 */
import { h } from './dom.js';
import { t } from './i18n.js';
import { showError } from './notices.js';
import { trainerApp } from './member-api.js';
import { distanceText, loadText, num, muscleName, unitLabel } from './member-cards.js';
import { dayLabel, recordBadges, clock } from './member-format.js';
import { barChart, goalBars } from './charts.js';
import { loadOverTime } from './exercise-extras.js';

const TABS = ['history', 'charts', 'recovery'];
const view = { root: null, tab: 'history', exercise: null, goalKind: 'categories', token: 0 };

function tabs() {
  return h('div', { class: 'segmented', role: 'tablist', 'aria-label': t('train.progressTabs') },
    TABS.map((tab) => h('button', {
      type: 'button', role: 'tab', class: `segment${view.tab === tab ? ' active' : ''}`, testid: `progress-tab-${tab}`,
      'aria-selected': String(view.tab === tab), i18n: `train.tab.${tab}`,
      onclick: () => { view.tab = tab; draw(); },
      onkeydown: (event) => {
        const forward = document.documentElement.dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
        const backward = document.documentElement.dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
        const step = event.key === forward ? 1 : event.key === backward ? -1 : 0;
        if (!step) return;
        view.tab = TABS[(TABS.indexOf(view.tab) + step + TABS.length) % TABS.length];
        draw();
        view.root?.querySelector(`[data-testid="progress-tab-${view.tab}"]`)?.focus();
      },
    })));
}

// ---- history -------------------------------------------------------------------------------------------------------

function setLine(set, unit) {
  const bits = [];
  if (set.reps) bits.push(set.load !== null && set.load !== undefined ? `${num(set.reps)} × ${loadText(set.load, unit)}`
    : t('member.repsOnly', { reps: num(set.reps) }));
  if (set.durationSec) bits.push(clock(set.durationSec));
  if (set.rpe) bits.push(t('train.set.rpeValue', { rpe: num(set.rpe) }));
  return h('li', { class: 'history-set', testid: 'history-set' },
    h('span', { class: 'set-number', text: num(set.setNumber) }),
    h('span', { dir: 'ltr', text: bits.join(' · ') }),
    recordBadges(set.records, unit));
}

function historyExercise(ex) {
  const unit = ex.unit;
  const extra = [];
  if (ex.volume) extra.push(t('train.volumeOf', { volume: loadText(ex.volume, unit) }));
  if (ex.durationMin && !ex.sets.some((s) => s.durationSec)) extra.push(t('member.min', { n: num(ex.durationMin) }));
  if (ex.distance) extra.push(distanceText(ex.distance, ex.distanceUnit));
  return h('li', { class: 'history-ex', testid: 'history-exercise', 'data-records': String(ex.records.length) },
    h('div', { class: 'history-ex-head' },
      h('span', { class: 'history-ex-name', dir: 'auto', text: ex.displayName }),
      extra.length ? h('span', { class: 'muted', text: extra.join(' · ') }) : null),
    ex.sets.length ? h('ol', { class: 'history-sets' }, ex.sets.map((s) => setLine(s, unit))) : null);
}

function historyDay(day, unit) {
  const totals = day.totals;
  return h('section', { class: 'history-day', testid: 'history-day', 'data-date': day.date },
    h('h3', { class: 'history-date', text: dayLabel(day.date) }),
    h('p', { class: 'muted history-totals', text: [t('train.history.exercises', { n: num(totals.exercises) }),
      t('train.history.sets', { n: num(totals.sets) }), totals.volume ? loadText(totals.volume, unit) : null,
      totals.records ? t('train.history.records', { n: num(totals.records) }) : null].filter(Boolean).join(' · ') }),
    day.workouts.map((w) => h('div', { class: 'history-workout' },
      h('h4', { dir: 'auto', text: w.title || t('train.history.freeLog') }),
      h('ul', { class: 'history-exercises' }, w.exercises.map(historyExercise)))));
}

async function drawHistory(body, token) {
  const data = await trainerApp.history(60);
  if (token !== view.token) return;
  const unit = data.units.weightUnit;
  body.replaceChildren(data.items.length
    ? h('div', { class: 'history', testid: 'history' }, data.items.map((d) => historyDay(d, unit)))
    : h('p', { class: 'muted', testid: 'history-empty', i18n: 'train.history.empty' }));
}

// ---- charts --------------------------------------------------------------------------------------------------------

async function drawCharts(body, token) {
  const [volume, load, goals] = await Promise.all([trainerApp.volume(12), trainerApp.exercise(view.exercise),
                                                   trainerApp.distribution()]);
  if (token !== view.token) return;
  const short = (iso) => dayLabel(iso, { day: 'numeric', month: 'short' });
  const volumeChart = barChart({ testid: 'chart-volume', caption: t('train.chart.volume', { unit: unitLabel(volume.unit) }),
    points: volume.points.map((p) => ({ label: short(p.weekStart), title: t('train.chart.weekOf', { day: short(p.weekStart) }),
                                        value: p.volume })),
    format: (v) => loadText(v, volume.unit) });
  const picker = h('select', { class: 'exercise-select', testid: 'chart-exercise-select', 'aria-label': t('train.chart.pickExercise'),
                               onchange: (event) => { view.exercise = event.target.value; draw(); } },
  load.choices.map((c) => h('option', { value: c.name, text: c.displayName, selected: c.name === load.exercise ? true : null })));
  const loadChart = load.points.length ? loadOverTime(load, 'chart-load', t('train.chart.load', { name: load.displayName ?? '' }))
    : h('p', { class: 'muted', testid: 'chart-load-empty', i18n: 'train.chart.noLoads' });
  const bests = load.exercise ? h('p', { class: 'muted chart-bests', testid: 'chart-bests', text: t('train.chart.bests', {
    heaviest: loadText(load.bests.heaviestLoad, load.unit), e1rm: loadText(load.bests.e1rm, load.unit) }) }) : null;
  const rows = (view.goalKind === 'categories' ? goals.categories : goals.muscles).map((g) => ({
    key: g.name, name: view.goalKind === 'categories' ? t(`member.goal.${g.name}`, undefined, g.name) : muscleName(g.name),
    targetPct: g.targetPct, actualPct: g.actualPct, debtPct: g.debtPct }));
  const goalSwitch = h('div', { class: 'segmented small', role: 'group', 'aria-label': t('train.chart.goalsKind') },
    ['categories', 'muscles'].map((kind) => h('button', { type: 'button', class: `segment${view.goalKind === kind ? ' active' : ''}`,
      testid: `goals-${kind}`, 'aria-pressed': String(view.goalKind === kind), i18n: `train.chart.${kind}`,
      onclick: () => { view.goalKind = kind; draw(); } })));
  body.replaceChildren(h('div', { class: 'charts', testid: 'charts' },
    h('section', { class: 'panel' }, h('h3', { i18n: 'train.chart.volumeTitle' }), volumeChart),
    h('section', { class: 'panel' }, h('h3', { i18n: 'train.chart.loadTitle' }),
      load.choices.length ? picker : null, loadChart, bests,
      h('p', { class: 'muted chart-note', text: t('train.chart.epleyNote') })),
    h('section', { class: 'panel' }, h('h3', { i18n: 'train.chart.goalsTitle' }), goalSwitch,
      rows.length ? goalBars({ testid: 'chart-goals', caption: t('train.chart.goalsTitle'), rows,
        debtText: (r) => (Math.abs(r.debtPct) < 0.5 ? t('train.chart.onTarget')
          : t(r.debtPct > 0 ? 'train.chart.under' : 'train.chart.over', { pct: num(Math.abs(r.debtPct)) })) })
        : h('p', { class: 'muted', i18n: 'train.chart.noGoals' }),
      h('p', { class: 'chart-legend' }, h('span', { class: 'legend target', i18n: 'train.chart.target' }),
        h('span', { class: 'legend actual', i18n: 'train.chart.actual', vars: { days: goals.windowDays } })))));
}

// ---- recovery ------------------------------------------------------------------------------------------------------

async function drawRecovery(body, token) {
  const data = await trainerApp.recovery();
  if (token !== view.token) return;
  body.replaceChildren(h('ul', { class: 'recovery-grid', testid: 'recovery-grid' }, data.muscles.map((m) => h('li', {
    class: `recovery-cell${m.recovering ? ' recovering' : ''}`, testid: 'recovery-muscle', 'data-muscle': m.muscle,
    'data-percent': String(m.percent) },
  h('span', { class: 'recovery-name', dir: 'auto', text: muscleName(m.muscle) }),
  h('span', { class: 'bar', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': String(m.percent),
              'aria-label': t('member.recovery.muscle', { muscle: muscleName(m.muscle), percent: num(m.percent) }) },
  h('span', { class: 'bar-fill', style: `inline-size: ${m.percent}%` })),
  h('span', { class: 'recovery-pct', text: m.recovering ? t('train.recovery.percent', { percent: num(m.percent) }) : t('member.recovery.ready') }),
  m.recovering && m.hoursRemaining !== undefined ? h('span', { class: 'muted recovery-eta',
    text: t('train.recovery.readyIn', { hours: num(Math.ceil(m.hoursRemaining)) }) }) : null))),
  h('p', { class: 'muted', i18n: 'train.recovery.rule' }));
}

// ---- the screen ----------------------------------------------------------------------------------------------------

function draw() {
  if (!view.root) return;
  view.token += 1;
  const token = view.token;
  const body = h('div', { class: 'progress-body', role: 'tabpanel', testid: `progress-${view.tab}` },
    h('p', { class: 'muted', i18n: 'chat.loading' }));
  view.root.replaceChildren(h('div', { class: 'progress', testid: 'progress' },
    h('h2', { class: 'view-title', i18n: 'train.nav.progress' }), tabs(), body));
  const run = view.tab === 'history' ? drawHistory : view.tab === 'charts' ? drawCharts : drawRecovery;
  run(body, token).catch((err) => {
    if (token !== view.token) return;
    showError(err);
    body.replaceChildren(h('p', { class: 'muted', i18n: 'errors.generic' }));
  });
}

export function mountProgress(root, tab) {
  view.root = root;
  if (TABS.includes(tab)) view.tab = tab;
  draw();
}

export function unmountProgress() {
  view.root = null;
  view.token += 1;
}

export function refreshProgress() {
  if (view.root) draw();
}
