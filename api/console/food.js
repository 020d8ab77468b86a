/**
 * Food: the member's food log for a day of the gym (…/nutrition/log): the day's totals against the plan's targets,
 * the day's body weight, foods added from the library by search (a portion in grams or ounces, or the food's
 * serving) or as a quick entry of calories and macros, the meals with their entries, and the weight trend with the
 * estimated expenditure and, when the service offers it, the choice of it as the plan's TDEE. Every number comes
 * from the service (food-api.js); this only draws it, in the UI language.
 */
import { h } from './dom.js';
import { t } from './i18n.js';
import { showError, clearError } from './notices.js';
import { foodLog } from './food-api.js';
import { num, unitLabel } from './member-cards.js';
import { dayLabel, announce } from './member-format.js';
import { lineChart } from './charts.js';

const MEALS = ['breakfast', 'lunch', 'dinner', 'snack'];
const MACROS = ['calories', 'proteinG', 'fatG', 'carbsG'];
const TREND_DAYS = 30;
const view = { root: null, day: null, data: null, trend: null, mode: 'search', query: '', found: null, picked: null,
               meal: null, token: 0, searchToken: 0, searchTimer: null };

const shiftDay = (iso, days) => {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
};
const amountOf = (value, key) => t(`food.amount.${key}`, { n: num(value) });

function defaultMeal() {
  const hour = new Date().getHours();
  return hour < 11 ? 'breakfast' : hour < 16 ? 'lunch' : hour < 21 ? 'dinner' : 'snack';
}

function field(label, input) {
  return h('label', { class: 'food-field' }, h('span', { class: 'food-field-label', text: label }), input);
}

function numberInput(testid, { step = '1', value = '' } = {}) {
  return h('input', { type: 'number', class: 'food-input', testid, inputmode: 'decimal', min: '0', step, value });
}

/** Run an action; its message is announced unless the action declined (returned false: the input was refused). */
async function act(work, message) {
  clearError();
  try {
    if ((await work()) !== false && message) announce(message);
  } catch (err) {
    showError(err);
  }
}

// ---- the day's totals and weight -----------------------------------------------------------------------------------

function totalsPanel(data) {
  const rows = MACROS.map((key) => {
    const eaten = data.totals[key];
    const target = data.targets?.[key];
    const unit = t(key === 'calories' ? 'food.kcal' : 'food.grams');
    const share = target ? Math.min(100, Math.round((100 * eaten) / target)) : 0;
    return h('li', { class: 'food-total', testid: `food-total-${key}`, 'data-eaten': String(eaten),
                     'data-target': target === undefined ? '' : String(target) },
      h('span', { class: 'food-total-name', i18n: `food.macro.${key}` }),
      h('span', { class: 'food-total-value', text: target ? t('food.ofTarget', { eaten: num(eaten), target: num(target), unit })
        : `${num(eaten)} ${unit}` }),
      target ? h('span', { class: 'bar', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': '100',
                           'aria-valuenow': String(share), 'aria-label': t(`food.macro.${key}`) },
      h('span', { class: `bar-fill${eaten > target ? ' over' : ''}`, style: `inline-size: ${share}%` })) : null,
      data.remaining ? h('span', { class: 'muted food-left', text: data.remaining[key] >= 0
        ? t('food.left', { n: num(data.remaining[key]), unit }) : t('food.over', { n: num(-data.remaining[key]), unit }) })
        : null);
  });
  return h('section', { class: 'panel', testid: 'food-totals' },
    h('h3', { i18n: 'food.totals' }),
    h('ul', { class: 'food-totals' }, rows),
    data.targets ? null : h('p', { class: 'muted', testid: 'food-no-targets', i18n: 'food.noTargets' }));
}

function weightPanel(data) {
  const input = numberInput('food-weight-input', { step: '0.1', value: data.weight ?? '' });
  const save = () => act(async () => {
    const value = Number(input.value);
    if (!input.value || !(value > 0)) { input.setAttribute('aria-invalid', 'true'); input.focus(); return false; }
    await foodLog.putWeight(view.day, value);
    await load();
    view.root?.querySelector('[data-testid="food-weight-input"]')?.focus();
  }, t('food.weightSaved'));
  input.addEventListener('keydown', (event) => { if (event.key === 'Enter') save(); });
  return h('section', { class: 'panel', testid: 'food-weight' },
    h('h3', { i18n: 'food.weight' }),
    h('div', { class: 'food-row' },
      field(t('food.weightIn', { unit: unitLabel(data.weightUnit) }), input),
      h('button', { type: 'button', class: 'btn', testid: 'food-weight-save', i18n: 'food.save', onclick: save })));
}

// ---- adding food ---------------------------------------------------------------------------------------------------

function mealSelect() {
  return field(t('food.meal'), h('select', { class: 'food-input', testid: 'food-meal',
                                             onchange: (event) => { view.meal = event.target.value; } },
  MEALS.map((meal) => h('option', { value: meal, text: t(`food.meals.${meal}`), selected: meal === view.meal ? true : null }))));
}

function search(words) {
  view.query = words;
  clearTimeout(view.searchTimer);
  view.searchTimer = setTimeout(async () => {
    const token = ++view.searchToken;
    try {
      const found = await foodLog.foods(words.trim());
      if (token !== view.searchToken || !view.root) return;
      view.found = found;
      view.root.querySelector('[data-testid="food-results"]')?.replaceWith(results());
    } catch (err) {
      showError(err);
    }
  }, 200);
}

function results() {
  const foods = view.found?.foods ?? [];
  return h('ul', { class: 'food-results', testid: 'food-results', 'aria-label': t('food.results') },
    foods.map((food) => h('li', {},
      h('button', { type: 'button', class: `food-result${view.picked?.key === food.key ? ' picked' : ''}`, testid: 'food-result',
                    'data-key': food.key, 'aria-pressed': String(view.picked?.key === food.key),
                    onclick: () => { view.picked = food; drawAdd(); view.root?.querySelector('[data-testid="food-amount"]')?.focus(); } },
      h('span', { class: 'food-result-name', dir: 'auto', text: food.name }),
      h('span', { class: 'muted', text: t('food.per100', { kcal: num(food.per100g.calories) }) })))));
}

function pickedForm() {
  const food = view.picked;
  const units = [view.found?.portionUnit ?? 'g', ...(food.serving ? ['serving'] : [])];
  const amount = numberInput('food-amount', { step: 'any', value: food.serving ? '1' : '100' });
  const unit = h('select', { class: 'food-input', testid: 'food-unit' }, units.map((u) => h('option', {
    value: u, text: u === 'serving' ? t(`food.serving.${food.serving.kind}`) : t(`food.unit.${u}`),
    selected: u === 'serving' ? true : null })));
  const add = () => act(async () => {
    const value = Number(amount.value);
    if (!(value > 0)) { amount.setAttribute('aria-invalid', 'true'); amount.focus(); return false; }
    const day = await foodLog.addFood({ date: view.day, meal: view.meal, foodKey: food.key, amount: value, unit: unit.value });
    view.picked = null;
    refresh(day);
    view.root?.querySelector('[data-testid="food-search"]')?.focus();
  }, t('food.added', { name: food.name }));
  return h('div', { class: 'food-picked', testid: 'food-picked' },
    h('p', { class: 'food-picked-name', dir: 'auto', text: food.name }),
    h('div', { class: 'food-row' }, field(t('food.amount.label'), amount), field(t('food.unit.label'), unit),
      h('button', { type: 'button', class: 'btn primary', testid: 'food-add', i18n: 'food.add', onclick: add })));
}

function quickForm() {
  const inputs = Object.fromEntries(MACROS.map((key) => [key, numberInput(`food-quick-${key}`, { step: 'any' })]));
  const label = h('input', { type: 'text', class: 'food-input wide', testid: 'food-quick-label', maxlength: '80' });
  const add = () => act(async () => {
    const body = { date: view.day, meal: view.meal };
    for (const key of MACROS) if (inputs[key].value !== '') body[key] = Number(inputs[key].value);
    if (label.value.trim()) body.label = label.value.trim();
    refresh(await foodLog.addQuick(body));
    view.root?.querySelector('[data-testid="food-quick-calories"]')?.focus();
  }, t('food.quickAdded'));
  return h('div', { class: 'food-quick', testid: 'food-quick' },
    h('div', { class: 'food-row' }, MACROS.map((key) => field(t(`food.macro.${key}`), inputs[key]))),
    field(t('food.quickLabel'), label),
    h('p', { class: 'muted', i18n: 'food.quickNote' }),
    h('button', { type: 'button', class: 'btn primary', testid: 'food-quick-add', i18n: 'food.add', onclick: add }));
}

function addPanel() {
  const modes = h('div', { class: 'segmented small', role: 'group', 'aria-label': t('food.addHow') },
    ['search', 'quick'].map((mode) => h('button', { type: 'button', class: `segment${view.mode === mode ? ' active' : ''}`,
      testid: `food-mode-${mode}`, 'aria-pressed': String(view.mode === mode), i18n: `food.mode.${mode}`,
      onclick: () => { view.mode = mode; drawAdd(); } })));
  let body;
  if (view.mode === 'search') {
    const box = h('input', { type: 'search', class: 'food-input wide', testid: 'food-search', maxlength: '60', value: view.query,
                             placeholder: t('food.searchHint'), oninput: (event) => search(event.target.value) });
    body = [field(t('food.search'), box), results(), view.picked ? pickedForm() : null];
  } else {
    body = [quickForm()];
  }
  return h('section', { class: 'panel food-add-panel', testid: 'food-add-panel' },
    h('h3', { i18n: 'food.addTitle' }), h('div', { class: 'food-row' }, mealSelect(), modes), body);
}

function drawAdd() {
  const old = view.root?.querySelector('[data-testid="food-add-panel"]');
  if (old) old.replaceWith(addPanel());
}

// ---- the meals ---------------------------------------------------------------------------------------------------

function entryLine(entry) {
  const name = entry.name || t('food.quickEntry');
  const portion = entry.kind === 'food'
    ? amountOf(entry.amount, entry.unit === 'serving' ? `serving.${entry.servingKind}` : `unit.${entry.unit}`) : null;
  const macros = ['proteinG', 'fatG', 'carbsG'].filter((k) => entry[k] !== null)
    .map((k) => t(`food.short.${k}`, { n: num(entry[k]) })).join(' · ');
  return h('li', { class: 'food-entry', testid: 'food-entry', 'data-kind': entry.kind, 'data-key': entry.foodKey ?? '' },
    h('span', { class: 'food-entry-name', dir: 'auto', text: name }),
    h('span', { class: 'food-entry-kcal', text: `${num(entry.calories)} ${t('food.kcal')}` }),
    h('span', { class: 'muted food-entry-detail', text: [portion, macros].filter(Boolean).join(' · ') }),
    h('button', { type: 'button', class: 'icon-btn food-remove', testid: 'food-remove', text: '×',
                  'aria-label': t('food.remove', { name }),
                  onclick: () => act(async () => {
                    refresh(await foodLog.remove(entry.id));
                    view.root?.querySelector('[data-testid="food-search"], [data-testid="food-quick-calories"]')?.focus();
                  }, t('food.removed', { name })) }));
}

function mealsPanel(data) {
  return h('div', { class: 'food-meals', testid: 'food-meals' }, data.meals.map((meal) => h('section', {
    class: 'panel', testid: 'food-meal-log', 'data-meal': meal.meal },
  h('h3', { class: 'food-meal-head' }, h('span', { i18n: `food.meals.${meal.meal}` }),
    h('span', { class: 'muted', text: `${num(meal.totals.calories)} ${t('food.kcal')}` })),
  meal.entries.length ? h('ul', { class: 'food-entries' }, meal.entries.map(entryLine))
    : h('p', { class: 'muted', i18n: 'food.nothingYet' }))));
}

// ---- the trend and the expenditure -------------------------------------------------------------------------------

function expenditureBlock(spent) {
  if (!spent.ready) {
    return h('p', { class: 'muted', testid: 'food-expenditure-pending', text: t('food.expenditure.pending', {
      days: num(spent.days), needDays: num(spent.needs.days), weights: num(spent.weights),
      needWeights: num(spent.needs.weights), logged: num(spent.loggedDays), needLogged: num(spent.needs.loggedDays) }) });
  }
  const choose = (choice) => act(async () => {
    await foodLog.chooseTdee(choice);
    await loadTrend();
    view.root?.querySelector('[data-testid="food-tdee-state"]')?.focus();
  }, t(`food.expenditure.chose.${choice}`));
  const inUse = spent.inUse ? h('p', { class: 'food-tdee-state', testid: 'food-tdee-state', tabindex: '-1',
    'data-in-use': spent.inUse, text: t(`food.expenditure.inUse.${spent.inUse}`, { kcal: num(spent.inUseKcal) }) }) : null;
  return h('div', { class: 'food-expenditure', testid: 'food-expenditure', 'data-kcal': String(spent.estimateKcal),
                    'data-confidence': spent.confidence },
    h('p', { class: 'food-expenditure-value', text: t('food.expenditure.value', { kcal: num(spent.estimateKcal) }) }),
    h('p', { class: 'muted', text: t(`food.expenditure.confidence.${spent.confidence}`) }),
    h('p', { class: 'muted', dir: 'auto', text: t('food.expenditure.how', {
      intake: num(spent.averageIntakeKcal), change: num(spent.trendChange), unit: unitLabel(spent.unit), days: num(spent.days) }) }),
    inUse,
    spent.offered ? h('div', { class: 'food-offer', testid: 'food-offer' },
      h('p', { text: t('food.expenditure.offer', { estimate: num(spent.estimateKcal), formula: num(spent.formulaKcal),
                                                   pct: num(Math.abs(spent.differencePct)) }) }),
      h('div', { class: 'btn-row' },
        h('button', { type: 'button', class: 'btn primary', testid: 'food-accept-estimate', i18n: 'food.expenditure.accept',
                      'aria-pressed': String(spent.choice?.choice === 'estimate'), onclick: () => choose('estimate') }),
        h('button', { type: 'button', class: 'btn', testid: 'food-keep-formula', i18n: 'food.expenditure.keep',
                      'aria-pressed': String(spent.choice?.choice === 'formula'), onclick: () => choose('formula') })),
      h('p', { class: 'muted', i18n: 'food.expenditure.next' })) : null);
}

function trendPanel(trend) {
  const short = (iso) => dayLabel(iso, { day: 'numeric', month: 'short' });
  const n = trend.points.length;
  const x = (i) => (n > 1 ? i / (n - 1) : 0.5);
  const logged = trend.points.some((p) => p.weight !== null);
  const chart = logged ? lineChart({ testid: 'food-trend-chart', caption: t('food.trend.caption', { unit: unitLabel(trend.unit) }),
    series: [{ name: t('food.trend.weights'), className: 'weights', line: false,
               points: trend.points.map((p, i) => ({ x: x(i), y: p.weight, label: short(p.date) })) },
             { name: t('food.trend.line'), className: 'trend', dots: false,
               points: trend.points.map((p, i) => ({ x: x(i), y: p.trend, label: short(p.date) })) }],
    xLabels: [{ x: 0, label: short(trend.points[0].date) }, { x: 1, label: short(trend.points.at(-1).date) }],
    format: (v) => `${num(v)} ${unitLabel(trend.unit)}` }) : h('p', { class: 'muted', i18n: 'food.trend.empty' });
  return h('section', { class: 'panel', testid: 'food-trend' },
    h('h3', { i18n: 'food.trend.title' }),
    trend.trendNow !== null ? h('p', { class: 'food-trend-now', testid: 'food-trend-now', 'data-value': String(trend.trendNow),
      text: t('food.trend.now', { value: num(trend.trendNow), unit: unitLabel(trend.unit) }) }) : null,
    trend.weeklyChange !== null ? h('p', { class: 'muted', testid: 'food-trend-week', 'data-value': String(trend.weeklyChange),
      text: t('food.trend.week', { value: `${trend.weeklyChange > 0 ? '+' : ''}${num(trend.weeklyChange)}`, unit: unitLabel(trend.unit) }) })
      : null,
    chart,
    h('p', { class: 'muted chart-note', i18n: 'food.trend.note' }),
    h('h3', { i18n: 'food.expenditure.title' }),
    expenditureBlock(trend.expenditure));
}

// ---- the screen ----------------------------------------------------------------------------------------------------

function dayNav(data) {
  const go = (iso) => { view.day = iso; view.picked = null; load(); };
  return h('div', { class: 'cal-nav food-day-nav' },
    h('button', { type: 'button', class: 'btn ghost small', testid: 'food-prev-day', 'aria-label': t('food.prevDay'),
                  text: document.documentElement.dir === 'rtl' ? '→' : '←', onclick: () => go(shiftDay(data.date, -1)) }),
    h('h3', { class: 'cal-title', testid: 'food-day', 'data-date': data.date,
              text: data.date === data.today ? t('food.today') : dayLabel(data.date, { weekday: 'long', day: 'numeric', month: 'long' }) }),
    h('button', { type: 'button', class: 'btn ghost small', testid: 'food-next-day', 'aria-label': t('food.nextDay'),
                  disabled: data.date >= data.today ? true : null,
                  text: document.documentElement.dir === 'rtl' ? '←' : '→', onclick: () => go(shiftDay(data.date, 1)) }));
}

function show(data) {
  if (!view.root) return;
  view.data = data;
  view.day = data.date;
  view.root.replaceChildren(h('div', { class: 'food', testid: 'food' },
    h('h2', { class: 'view-title', i18n: 'train.nav.food' }),
    dayNav(data), totalsPanel(data), weightPanel(data), addPanel(), mealsPanel(data),
    view.trend ? trendPanel(view.trend) : h('section', { class: 'panel', testid: 'food-trend-loading' },
      h('p', { class: 'muted', i18n: 'chat.loading' }))));
}

/** The day after an entry changed, and the trend with it (the expenditure reads the log's intake). */
function refresh(data) {
  show(data);
  loadTrend().catch(showError);
}

async function loadTrend() {
  const token = view.token;
  const trend = await foodLog.trend(TREND_DAYS);
  if (token !== view.token || !view.root) return;
  view.trend = trend;
  const old = view.root.querySelector('[data-testid="food-trend"], [data-testid="food-trend-loading"]');
  old?.replaceWith(trendPanel(trend));
}

async function load() {
  view.token += 1;
  const token = view.token;
  try {
    const [data] = await Promise.all([foodLog.day(view.day ?? 'today'), view.found ? null : foodLog.foods(view.query.trim())
      .then((found) => { view.found = found; })]);
    if (token !== view.token) return;
    show(data);
    await loadTrend();
  } catch (err) {
    if (token !== view.token) return;
    showError(err);
    view.root?.replaceChildren(h('p', { class: 'muted', i18n: 'errors.generic' }));
  }
}

export function mountFood(root) {
  view.root = root;
  view.meal = view.meal ?? defaultMeal();
  root.replaceChildren(h('p', { class: 'muted', i18n: 'chat.loading' }));
  load();
}

export function unmountFood() {
  view.root = null;
  view.token += 1;
  clearTimeout(view.searchTimer);
}

/** A language switch: food names come again in the new language. */
export function refreshFood() {
  if (!view.root) return;
  view.found = null;
  view.picked = null;
  view.trend = null;
  load();
}
