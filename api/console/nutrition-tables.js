/** A run's outputs as tables people can read: macros, the 7 × 5 meal grid, recipes, the training program. */
import { h } from './dom.js';
import { agentList, enumLabel, num, qty, signedQty, tr } from './nutrition-words.js';

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const MEALS = ['breakfast', 'lunch', 'snack', 'dinner', 'presleep'];

function table(testid, head, rows, caption, extraClass = '') {
  return h(
    'div',
    { class: 'nt-scroll' },
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

export function macrosTable(macros) {
  if (!macros) return null;
  const rows = MACRO_ROWS.filter(([key]) => macros[key] !== undefined).map(([key, label, unit]) =>
    h('tr', { 'data-key': key }, h('th', { scope: 'row', text: tr(`macro.${key}`, label) }),
      h('td', { class: 'num', text: key === 'weekly_weight_target_kg' ? signedQty(macros[key], unit, 2) : qty(macros[key], unit, 2) })),
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

export function mealGrid(plan, recipes) {
  const template = plan?.weekly_template;
  if (!template) return null;
  const bySlot = recipeBySlot(recipes);
  const rows = DAYS.map((day) =>
    h('tr', { 'data-day': day }, h('th', { scope: 'row', text: enumLabel('day', day) }),
      MEALS.map((meal) => {
        const spec = template[day]?.[meal]?.slot_spec ?? {};
        const recipe = bySlot.get(`${day}/${meal}`);
        return h('td', { class: 'nt-slot', 'data-meal': meal, 'data-label': enumLabel('meal', meal) },
          recipe ? h('span', { class: 'nt-recipe-name', dir: 'auto', text: recipe.recipe_name }) : null,
          h('span', { class: 'nt-slot-macros muted', text: tr('slotMacros', '{kcal} · protein {protein}',
            { kcal: qty(spec.calories, 'kcal'), protein: qty(spec.protein_g, 'g', 1) }) }));
      })),
  );
  return section('nt-meals', tr('mealPlan', 'Weekly meal plan'),
    table('meal-grid', [tr('col.day', 'Day'), ...MEALS.map((meal) => enumLabel('meal', meal))], rows, null, 'nt-grid-table'));
}

function recipeCard(recipe) {
  const m = recipe.macros_per_serving ?? {};
  const time = recipe.time ?? {};
  return h('article', { class: 'nt-recipe', testid: 'recipe', 'data-recipe-id': recipe.recipe_id },
    h('h4', { dir: 'auto', text: recipe.recipe_name }),
    h('p', { class: 'muted', testid: 'recipe-summary', text: tr('recipeSummary',
      '{kcal} · protein {protein} · fat {fat} · carbs {carbs} · {time} · {servings} servings', {
        kcal: qty(m.calories, 'kcal'), protein: qty(m.protein_g, 'g', 1), fat: qty(m.fat_g, 'g', 1),
        carbs: qty(m.carbs_g, 'g', 1), time: qty((time.prep_min ?? 0) + (time.cook_min ?? 0), 'min'),
        servings: num(recipe.servings, 1) }) }),
    h('p', { class: 'muted small', text: tr('recipeServes', 'Serves: {slots}', {
      slots: (recipe.slots ?? []).map((s) => `${enumLabel('day', s.day)} ${enumLabel('meal', s.meal)}`).join(', ') }) }),
    table('recipe-ingredients', [tr('col.ingredient', 'Ingredient'), tr('col.amount', 'Amount'), tr('col.prep', 'Preparation')],
      (recipe.ingredients ?? []).map((item) => h('tr', {}, h('td', { dir: 'auto', text: item.item }),
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
    ...session.exercises.map((ex) => h('tr', { 'data-day': session.day },
      h('td', { dir: 'auto', 'data-label': cols[0], text: ex.name }),
      h('td', { class: 'num', 'data-label': cols[1], text: num(ex.sets) }),
      h('td', { class: 'num', 'data-label': cols[2], dir: 'ltr', text: ex.reps }),
      h('td', { class: 'num', 'data-label': cols[3], text: qty(ex.rest_sec, 's') }),
      h('td', { class: 'num', 'data-label': cols[4], text: num(ex.target_rpe, 1) }))),
  ]);
  const summary = tr('programSummary', '{phase}, week {week}, {frequency} sessions a week',
    { phase: enumLabel('phase', program.phase), week: num(program.phase_week), frequency: num(program.frequency) });
  return section('nt-training', tr('training', 'Training program'), h('p', { class: 'muted', testid: 'program-summary', text: summary }),
    table('training-table', cols, rows, null, 'nt-stack-table'),
    training.progression_rules?.length ? h('ul', { class: 'nt-notes' }, training.progression_rules.map((rule) => h('li', { dir: 'auto', text: rule }))) : null);
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

export function outputsView(outputs) {
  return [macrosTable(outputs.macro_targets), mealGrid(outputs.weekly_meal_plan, outputs.recipes),
    recipeList(outputs.recipes), trainingTable(outputs.training_program)].filter(Boolean);
}
