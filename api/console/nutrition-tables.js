/** A run's outputs as tables people can read: macros, the 7 × 5 meal grid, recipes, the training program. */
import { h } from './dom.js';
import { t } from './i18n.js';

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const MEALS = ['breakfast', 'lunch', 'snack', 'dinner', 'presleep'];
const tr = (key, fallback, vars) => t(`nutrition.${key}`, vars, fallback);
const words = (name) => String(name).replace(/_/g, ' ');
const num = (value, digits = 0) =>
  typeof value === 'number' ? value.toLocaleString(undefined, { maximumFractionDigits: digits }) : String(value ?? '—');

function table(testid, head, rows, caption) {
  return h(
    'div',
    { class: 'nt-scroll' },
    h(
      'table',
      { class: 'nt-table', testid },
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
      h('td', { class: 'num', text: num(macros[key], 2) }), h('td', { text: unit })),
  );
  return section('nt-macros', tr('macros', 'Daily targets'),
    table('macros-table', [tr('col.target', 'Target'), tr('col.amount', 'Amount'), tr('col.unit', 'Unit')], rows));
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
    h('tr', { 'data-day': day }, h('th', { scope: 'row', text: tr(`day.${day}`, words(day)) }),
      MEALS.map((meal) => {
        const spec = template[day]?.[meal]?.slot_spec ?? {};
        const recipe = bySlot.get(`${day}/${meal}`);
        return h('td', { class: 'nt-slot', 'data-meal': meal },
          recipe ? h('span', { class: 'nt-recipe-name', text: recipe.recipe_name }) : null,
          h('span', { class: 'nt-slot-macros muted', text: `${num(spec.calories)} kcal · ${num(spec.protein_g, 1)} g P` }));
      })),
  );
  return section('nt-meals', tr('mealPlan', 'Weekly meal plan'),
    table('meal-grid', ['', ...MEALS.map((meal) => tr(`meal.${meal}`, words(meal)))], rows));
}

function recipeCard(recipe) {
  const m = recipe.macros_per_serving ?? {};
  const time = recipe.time ?? {};
  return h('article', { class: 'nt-recipe', testid: 'recipe', 'data-recipe-id': recipe.recipe_id },
    h('h4', { text: recipe.recipe_name }),
    h('p', { class: 'muted', text: `${num(m.calories)} kcal · P ${num(m.protein_g, 1)} g · F ${num(m.fat_g, 1)} g · C ${num(m.carbs_g, 1)} g · ${num((time.prep_min ?? 0) + (time.cook_min ?? 0))} min` }),
    table('recipe-ingredients', [tr('col.ingredient', 'Ingredient'), tr('col.grams', 'Grams'), tr('col.prep', 'Preparation')],
      (recipe.ingredients ?? []).map((item) => h('tr', {}, h('td', { text: words(item.item) }),
        h('td', { class: 'num', text: num(item.amount_g) }), h('td', { text: item.prep_notes ?? '' })))),
    h('ol', { class: 'nt-steps', testid: 'recipe-steps' }, (recipe.instructions ?? []).map((step) => h('li', { text: step }))));
}

export function recipeList(recipes) {
  const list = recipes?.recipes ?? [];
  if (!list.length) return null;
  return section('nt-recipes', tr('recipes', 'Recipes'), h('div', { class: 'nt-recipe-list' }, list.map(recipeCard)));
}

export function trainingTable(training) {
  const program = training?.program;
  if (!program) return null;
  const rows = (program.sessions ?? []).flatMap((session) =>
    session.exercises.map((ex, i) => h('tr', { 'data-day': session.day },
      i === 0 ? h('th', { scope: 'row', rowspan: session.exercises.length, text: `${tr(`day.${session.day}`, words(session.day))} — ${session.focus}` }) : null,
      h('td', { text: ex.name }), h('td', { class: 'num', text: num(ex.sets) }), h('td', { text: ex.reps }),
      h('td', { class: 'num', text: `${num(ex.rest_sec)} s` }), h('td', { class: 'num', text: num(ex.target_rpe, 1) }))));
  const summary = tr('programSummary', `${words(program.phase)}, week ${program.phase_week}, ${program.frequency} sessions a week`,
    { phase: words(program.phase), week: program.phase_week, frequency: program.frequency });
  return section('nt-training', tr('training', 'Training program'), h('p', { class: 'muted', text: summary }),
    table('training-table', [tr('col.session', 'Session'), tr('col.exercise', 'Exercise'), tr('col.sets', 'Sets'),
      tr('col.reps', 'Reps'), tr('col.rest', 'Rest'), tr('col.rpe', 'RPE')], rows),
    training.progression_rules?.length ? h('ul', { class: 'nt-notes' }, training.progression_rules.map((rule) => h('li', { text: rule }))) : null);
}

export function adjustmentView(adjustment) {
  if (!adjustment) return null;
  const rows = [
    ['type', tr('adj.type', 'Adjustment'), words(adjustment.adjustment_type ?? 'no_change')],
    ['triggers', tr('adj.triggers', 'Triggers'), (adjustment.triggers_fired ?? []).map(words).join(', ') || '—'],
    ['amount', tr('adj.amount', 'Calorie change'), adjustment.adjustment_amount_kcal == null ? '—' : `${adjustment.adjustment_amount_kcal > 0 ? '+' : ''}${num(adjustment.adjustment_amount_kcal)} kcal`],
    ['target', tr('adj.target', 'New daily calories'), adjustment.new_target_intake_kcal == null ? '—' : `${num(adjustment.new_target_intake_kcal)} kcal`],
    ['rerun', tr('adj.rerun', 'Agents re-run'), (adjustment.agents_re_run ?? []).join(', ') || '—'],
    ['unchanged', tr('adj.unchanged', 'Agents unchanged'), (adjustment.agents_unchanged ?? []).join(', ') || '—'],
  ].map(([key, label, value]) => h('tr', { 'data-key': key }, h('th', { scope: 'row', text: label }), h('td', { text: value })));
  return h('div', { class: 'nt-adjustment', testid: 'adjustment' },
    table('adjustment-table', [tr('col.item', 'Item'), tr('col.value', 'Value')], rows),
    (adjustment.notes ?? []).length ? h('ul', { class: 'nt-notes' }, adjustment.notes.map((note) => h('li', { text: note }))) : null);
}

export function outputsView(outputs) {
  return [macrosTable(outputs.macro_targets), mealGrid(outputs.weekly_meal_plan, outputs.recipes),
    recipeList(outputs.recipes), trainingTable(outputs.training_program)].filter(Boolean);
}
