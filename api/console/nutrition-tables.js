/**
 * A run's plan as a member reads it: today's meals and the daily targets first, then the week (the 7 × 5 meal
 * grid with today marked), the grocery list by aisle, the recipes and the training program (exercise and muscle
 * names in the UI language); the adjustment of a check-in.
 */
import { h } from './dom.js';
import { agentList, aisleLabel, enumLabel, exerciseName, foodLabel, muscleLabel, num, qty, recipeName, signedQty, tr } from './nutrition-words.js';

export const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const MEALS = ['breakfast', 'lunch', 'snack', 'dinner', 'presleep'];

/** A table in a box that scrolls sideways by itself (by keyboard too), never the page. */
function table(testid, head, rows, caption, extraClass = '') {
  return h(
    'div',
    { class: 'nt-scroll', tabindex: '0', role: 'region', 'aria-label': caption ?? head.join(', ') },
    h(
      'table',
      { class: `nt-table ${extraClass}`.trim(), testid },
      caption ? h('caption', { text: caption }) : null,
      h('thead', {}, h('tr', {}, head.map((cell) => h('th', { scope: 'col', text: cell })))),
      h('tbody', {}, rows),
    ),
  );
}

function section(testid, title, ...children) {
  return h('section', { class: 'nt-section', testid }, h('h3', { text: title }), ...children);
}

const MACRO_ROWS = [
  ['target_intake_kcal', 'Daily calories', 'kcal'],
  ['protein_g', 'Protein', 'g'],
  ['fat_g', 'Fat', 'g'],
  ['carbs_g', 'Carbohydrates', 'g'],
  ['fiber_g_min', 'Fibre (minimum)', 'g'],
  ['hydration_L', 'Water', 'L'],
  ['bmr_kcal', 'BMR', 'kcal'],
  ['tdee_kcal', 'TDEE', 'kcal'],
  ['protein_g_per_kg', 'Protein per kg', 'g/kg'],
  ['fat_percent', 'Fat share', '%'],
  ['weekly_weight_target_kg', 'Weekly weight change', 'kg'],
];

const weeklyChange = (kg, display) => (display?.units === 'imperial' && typeof display.weekly_weight_target_lb === 'number'
  ? signedQty(display.weekly_weight_target_lb, 'lb', 2) : signedQty(kg, 'kg', 2));

/** The daily targets; the weekly weight change in the member's units (`display`: pounds for an imperial member). */
export function macrosTable(macros, display = null) {
  if (!macros) return null;
  const rows = MACRO_ROWS.filter(([key]) => macros[key] !== undefined).map(([key, label, unit]) =>
    h('tr', { 'data-key': key }, h('th', { scope: 'row', text: tr(`macro.${key}`, label) }),
      h('td', { class: 'num', text: key === 'weekly_weight_target_kg' ? weeklyChange(macros[key], display) : qty(macros[key], unit, 2) })),
  );
  return section('nt-macros', tr('macros', 'Daily targets'),
    table('macros-table', [tr('col.target', 'Target'), tr('col.amount', 'Amount')], rows));
}

function recipeBySlot(recipes) {
  const bySlot = new Map();
  for (const recipe of recipes?.recipes ?? []) {
    for (const slot of recipe.slots ?? []) bySlot.set(`${slot.day}/${slot.meal}`, recipe);
  }
  return bySlot;
}

/** A recipe's name as a node: in the UI language, or marked as the English the CHEF wrote. */
function recipeTitle(recipe, tag = 'span', props = {}) {
  const { text, lang } = recipeName(recipe);
  return h(tag, { ...props, dir: 'auto', lang: lang && lang !== document.documentElement.lang ? lang : null, text });
}

const slotMacros = (spec) => tr('slotMacros', '{kcal} · protein {protein}',
  { kcal: qty(spec.calories, 'kcal'), protein: qty(spec.protein_g, 'g', 1) });

/** Today's five meals (the plan's day of the week `day`), each with its recipe and its calories and protein. */
export function todayView(plan, recipes, day) {
  const slots = plan?.weekly_template?.[day];
  if (!slots) return null;
  const bySlot = recipeBySlot(recipes);
  const items = MEALS.filter((meal) => slots[meal]).map((meal) => {
    const recipe = bySlot.get(`${day}/${meal}`);
    return h('li', { class: 'nt-today-meal', testid: 'today-meal', 'data-meal': meal },
      h('span', { class: 'nt-today-slot', text: enumLabel('meal', meal) }),
      recipe ? recipeTitle(recipe, 'span', { class: 'nt-recipe-name' }) : h('span', { class: 'muted', text: '—' }),
      h('span', { class: 'nt-slot-macros muted', text: slotMacros(slots[meal].slot_spec ?? {}) }));
  });
  return h('section', { class: 'nt-section nt-today', testid: 'nt-today', 'data-day': day },
    h('h3', { text: tr('today', 'Today, {day}', { day: enumLabel('day', day) }) }),
    h('ol', { class: 'nt-today-list' }, items));
}

export function mealGrid(plan, recipes, today = null) {
  const template = plan?.weekly_template;
  if (!template) return null;
  const bySlot = recipeBySlot(recipes);
  const rows = DAYS.map((day) =>
    h('tr', { 'data-day': day, class: day === today ? 'nt-today-row' : null },
      h('th', { scope: 'row', 'aria-current': day === today ? 'date' : null },
        enumLabel('day', day), day === today ? h('span', { class: 'nt-badge small', text: tr('todayBadge', 'today') }) : null),
      MEALS.map((meal) => {
        const spec = template[day]?.[meal]?.slot_spec ?? {};
        const recipe = bySlot.get(`${day}/${meal}`);
        return h('td', { class: 'nt-slot', 'data-meal': meal, 'data-label': enumLabel('meal', meal) },
          recipe ? recipeTitle(recipe, 'span', { class: 'nt-recipe-name' }) : null,
          h('span', { class: 'nt-slot-macros muted', text: slotMacros(spec) }));
      })),
  );
  return section('nt-meals', tr('mealPlan', 'Weekly meal plan'),
    table('meal-grid', [tr('col.day', 'Day'), ...MEALS.map((meal) => enumLabel('meal', meal))], rows, null, 'nt-grid-table'));
}

/** An amount to buy: grams under a kilogram, else kilograms, in the UI language. */
const buyAmount = (grams) => (grams >= 1000 ? qty(grams / 1000, 'kg', 1) : qty(grams, 'g'));

/**
 * Ticks on the grocery list, kept in this browser per plan and ISO week (`spotter.groceries.<runId>.<week>`): a
 * shopping aid lives where the member shops, survives a reload, works with no signal in the shop, and stores no
 * more of a member's data on the server; a new week starts unticked. It does not follow the member to another device.
 */
function tickStore(key) {
  const read = () => {
    try {
      return new Set(key ? JSON.parse(localStorage.getItem(key) ?? '[]') : []);
    } catch {
      return new Set();
    }
  };
  return {
    has: (food) => read().has(food),
    set(food, on) {
      if (!key) return;
      const ticks = read();
      if (on) ticks.add(food);
      else ticks.delete(food);
      localStorage.setItem(key, JSON.stringify([...ticks]));
    },
  };
}

/** The week's groceries (the run detail's `groceries`, summed by the service) by aisle, names in the UI language,
 * each with a box to tick it off while shopping (`ticksKey`: where the ticks are kept). */
export function groceryList(groceries, { ticksKey = null } = {}) {
  if (!Array.isArray(groceries) || !groceries.length) return null;
  const ticks = tickStore(ticksKey);
  const count = h('p', { class: 'muted small', testid: 'grocery-done', 'aria-live': 'polite' });
  const boxes = [];
  const recount = () => {
    count.textContent = tr('groceriesDone', '{done} of {total} ticked', { done: num(boxes.filter((b) => b.checked).length),
      total: num(boxes.length) });
  };
  const item = (food) => {
    const box = h('input', { type: 'checkbox', testid: 'grocery-check', checked: ticks.has(food.food),
      'aria-label': foodLabel(food.food) });
    boxes.push(box);
    const row = h('li', { testid: 'grocery-item', 'data-food': food.food, class: box.checked ? 'done' : '' },
      h('label', { class: 'nt-grocery-food', dir: 'auto' }, box, h('span', { text: foodLabel(food.food) })),
      h('span', { class: 'nt-grocery-amount num', testid: 'grocery-amount', text: buyAmount(food.grams) }));
    box.addEventListener('change', () => {
      ticks.set(food.food, box.checked);
      row.classList.toggle('done', box.checked);
      recount();
    });
    return row;
  };
  const aisles = groceries.filter((aisle) => aisle?.items?.length).map((aisle) =>
    h('section', { class: 'nt-aisle', testid: 'grocery-aisle', 'data-aisle': aisle.aisle },
      h('h4', { text: aisleLabel(aisle.aisle) }),
      h('ul', { class: 'nt-grocery-items' }, aisle.items.map(item))));
  if (!aisles.length) return null;
  recount();
  return section('nt-groceries', tr('groceries', 'Grocery list for the week'),
    h('p', { class: 'muted small', text: tr('groceriesHelp', "Everything the week's recipes use, summed, by aisle.") }),
    count, h('div', { class: 'nt-aisles' }, aisles));
}

function recipeCard(recipe) {
  const m = recipe.macros_per_serving ?? {};
  const time = recipe.time ?? {};
  return h('article', { class: 'nt-recipe', testid: 'recipe', 'data-recipe-id': recipe.recipe_id },
    recipeTitle(recipe, 'h4'),
    h('p', { class: 'muted', testid: 'recipe-summary', text: tr('recipeSummary',
      '{kcal} · protein {protein} · fat {fat} · carbs {carbs} · {time} · {servings} servings', {
        kcal: qty(m.calories, 'kcal'), protein: qty(m.protein_g, 'g', 1), fat: qty(m.fat_g, 'g', 1),
        carbs: qty(m.carbs_g, 'g', 1), time: qty((time.prep_min ?? 0) + (time.cook_min ?? 0), 'min'),
        servings: num(recipe.servings, 1) }) }),
    h('p', { class: 'muted small', text: tr('recipeServes', 'Serves: {slots}', {
      slots: (recipe.slots ?? []).map((s) => `${enumLabel('day', s.day)} ${enumLabel('meal', s.meal)}`).join(', ') }) }),
    table('recipe-ingredients', [tr('col.ingredient', 'Ingredient'), tr('col.amount', 'Amount'), tr('col.prep', 'Preparation')],
      (recipe.ingredients ?? []).map((item) => h('tr', { 'data-food': item.item }, h('td', { dir: 'auto', text: foodLabel(item.item) }),
        h('td', { class: 'num', text: qty(item.amount_g, 'g') }), h('td', { dir: 'auto', text: item.prep_notes ?? '' })))),
    h('ol', { class: 'nt-steps', testid: 'recipe-steps' }, (recipe.instructions ?? []).map((step) => h('li', { dir: 'auto', text: step }))));
}

export function recipeList(recipes) {
  const list = recipes?.recipes ?? [];
  if (!list.length) return null;
  return section('nt-recipes', tr('recipes', 'Recipes'), h('div', { class: 'nt-recipe-list' }, list.map(recipeCard)));
}

export function trainingTable(training) {
  const program = training?.program;
  if (!program) return null;
  const cols = [tr('col.exercise', 'Exercise'), tr('col.sets', 'Sets'), tr('col.reps', 'Reps'), tr('col.rest', 'Rest'),
    tr('col.rpe', 'RPE')];
  const rows = (program.sessions ?? []).flatMap((session) => [
    h('tr', { class: 'nt-session-row', 'data-day': session.day },
      h('th', { scope: 'colgroup', colspan: cols.length, text: `${enumLabel('day', session.day)} — ${enumLabel('focus', String(session.focus ?? '').replace(/\s+/g, '_'))}` })),
    ...session.exercises.map((ex) => h('tr', { 'data-day': session.day, 'data-exercise': ex.name },
      h('td', { dir: 'auto', 'data-label': cols[0], testid: 'exercise-name', text: exerciseName(ex.name) }),
      h('td', { class: 'num', 'data-label': cols[1], text: num(ex.sets) }),
      h('td', { class: 'num', 'data-label': cols[2], dir: 'ltr', text: ex.reps }),
      h('td', { class: 'num', 'data-label': cols[3], text: qty(ex.rest_sec, 's') }),
      h('td', { class: 'num', 'data-label': cols[4], text: num(ex.target_rpe, 1) }))),
  ]);
  const summary = tr('programSummary', '{phase}, week {week}, {frequency} sessions a week',
    { phase: enumLabel('phase', program.phase), week: num(program.phase_week), frequency: num(program.frequency) });
  return section('nt-training', tr('training', 'Training program'), h('p', { class: 'muted', testid: 'program-summary', text: summary }),
    table('training-table', cols, rows, null, 'nt-stack-table'), muscleVolume(training.weekly_volume_summary),
    training.progression_rules?.length ? h('ul', { class: 'nt-notes' }, training.progression_rules.map((rule) => h('li', { dir: 'auto', text: rule }))) : null);
}

/** The week's working sets by muscle (COACH's weekly_volume_summary), muscles named in the UI language. */
function muscleVolume(volume) {
  const entries = Object.entries(volume ?? {}).filter(([, sets]) => typeof sets === 'number');
  if (!entries.length) return null;
  entries.sort((a, b) => b[1] - a[1]);
  return h('div', { class: 'nt-volume', testid: 'muscle-volume' },
    h('h4', { text: tr('muscleVolume', 'Sets a week by muscle') }),
    h('ul', { class: 'nt-chips' }, entries.map(([muscle, sets]) => h('li', { class: 'nt-chip', testid: 'muscle', 'data-muscle': muscle },
      h('span', { text: muscleLabel(muscle) }), ' ', h('span', { class: 'num', text: num(sets) })))));
}

export function adjustmentView(adjustment) {
  if (!adjustment) return null;
  const macros = adjustment.new_macros;
  const rows = [
    ['type', tr('adj.type', 'Adjustment'), enumLabel('trigger', adjustment.adjustment_type ?? 'no_change'), adjustment.adjustment_type ?? 'no_change'],
    ['triggers', tr('adj.triggers', 'Triggers'), (adjustment.triggers_fired ?? []).map((x) => enumLabel('trigger', x)).join(', ') || '—'],
    ['amount', tr('adj.amount', 'Calorie change'), signedQty(adjustment.adjustment_amount_kcal, 'kcal')],
    ['target', tr('adj.target', 'New daily calories'), qty(adjustment.new_target_intake_kcal, 'kcal')],
    macros ? ['macros', tr('adj.macros', 'New macros'), tr('newMacros', 'protein {protein} · fat {fat} · carbs {carbs}', {
      protein: qty(macros.protein_g, 'g'), fat: qty(macros.fat_g, 'g'), carbs: qty(macros.carbs_g, 'g') })] : null,
    ['rerun', tr('adj.rerun', 'Agents re-run'), agentList(adjustment.agents_re_run), (adjustment.agents_re_run ?? []).join(' ')],
    ['unchanged', tr('adj.unchanged', 'Agents unchanged'), agentList(adjustment.agents_unchanged), (adjustment.agents_unchanged ?? []).join(' ')],
  ].filter(Boolean).map(([key, label, value, raw]) => h('tr', { 'data-key': key, 'data-value': raw },
    h('th', { scope: 'row', text: label }), h('td', { text: value })));
  return h('div', { class: 'nt-adjustment', testid: 'adjustment' },
    table('adjustment-table', [tr('col.item', 'Item'), tr('col.value', 'Value')], rows),
    (adjustment.notes ?? []).length ? h('ul', { class: 'nt-notes' }, adjustment.notes.map((note) => h('li', { dir: 'auto', text: note }))) : null);
}

/** The plan, in the order a member reads it: today and the daily targets, the week, groceries, recipes, training. */
export function outputsView(outputs, { today = null, groceries = null, display = null, ticksKey = null } = {}) {
  const top = [todayView(outputs.weekly_meal_plan, outputs.recipes, today), macrosTable(outputs.macro_targets, display)].filter(Boolean);
  return [top.length ? h('div', { class: 'nt-top', testid: 'plan-top' }, top) : null,
    mealGrid(outputs.weekly_meal_plan, outputs.recipes, today), groceryList(groceries, { ticksKey }),
    recipeList(outputs.recipes), trainingTable(outputs.training_program)].filter(Boolean);
}
