/**
 * The intake's food constraints as a member answers them (NUTRITION.md, "Constraints on closed vocabularies"):
 * allergies are a picker of the allergen codes (named in the UI language) plus free text in the member's own words,
 * shown back as the codes the service understood, or as not understood with the nearest codes; foods to avoid are
 * free text, each shown back as the foods it names or as not recognised. What is understood comes from the service
 * (POST …/nutrition/understood): the words are mapped there, once, never here.
 */
import { h } from './dom.js';
import { fieldBox } from './nutrition-fields.js';
import { enumLabel, tr } from './nutrition-words.js';

// The closed vocabulary (gym/nutrition/vocabulary.py ALLERGENS), in its order.
export const ALLERGENS = ['milk', 'egg', 'fish', 'crustacean_shellfish', 'mollusc', 'tree_nuts', 'peanut', 'gluten',
  'wheat', 'soy', 'sesame', 'celery', 'mustard', 'lupin', 'sulphites', 'lactose'];

const splitList = (text) => text.split(/[,،;\n]/).map((item) => item.trim()).filter(Boolean);
/** A draft's stored word as a person writes it ("peanut_butter" → "peanut butter"). */
const readable = (word) => String(word).replace(/_/g, ' ');

function debounce(fn, ms) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

/**
 * The allergies and foods-to-avoid part of the intake form. `allergies` and `aversions` are the draft's (codes and
 * words); `understand(body)` asks the service; returns {nodes, read(), refresh()}.
 */
export function foodConstraints({ allergies = [], aversions = [], understand = null, diet = () => 'omnivore' }) {
  const checks = ALLERGENS.map((code) => h('input', { type: 'checkbox', name: 'allergen', value: code, testid: `allergen-${code}`,
    checked: allergies.includes(code) }));
  const picker = h('fieldset', { class: 'nt-allergens', testid: 'allergen-picker' },
    h('legend', { class: 'field-label', text: tr('allergiesTitle', 'Allergies and intolerances') }),
    h('p', { class: 'muted small', text: tr('allergiesHelp', 'Tick what applies, or write it in your own words: we show what we understood.') }),
    h('div', { class: 'nt-allergen-grid' }, checks.map((input) => h('label', { class: 'nt-check-label nt-allergen' }, input,
      h('span', { text: enumLabel('allergen', input.value) })))));
  const other = h('input', { type: 'text', name: 'allergies', dir: 'auto', testid: 'intake-allergies',
    value: allergies.filter((a) => !ALLERGENS.includes(a)).map(readable).join(', ') });
  const otherShown = h('ul', { class: 'nt-understood', testid: 'allergies-understood', 'aria-live': 'polite' });
  const avoid = h('input', { type: 'text', name: 'food_aversions', dir: 'auto', testid: 'intake-food_aversions',
    value: aversions.map(readable).join(', ') });
  const avoidShown = h('ul', { class: 'nt-understood', testid: 'aversions-understood', 'aria-live': 'polite' });
  const otherBox = fieldBox(tr('allergiesOther', 'Other allergies, in your words'), other);
  otherBox.append(otherShown);
  const avoidBox = fieldBox(tr('intake.food_aversions', 'Foods to avoid'), avoid);
  avoidBox.append(avoidShown);

  const read = () => ({
    allergies: [...checks.filter((c) => c.checked).map((c) => c.value), ...splitList(other.value)],
    food_aversions: splitList(avoid.value),
  });
  const show = (answer) => {
    const labels = (codes) => codes.map((c) => c.label).join(', ');
    otherShown.replaceChildren(...(answer?.allergies ?? []).map((a) => h('li', {
      testid: 'allergy-understood', 'data-understood': String(a.understood), 'data-codes': a.codes.map((c) => c.code).join(' '),
      class: a.understood ? 'ok' : 'nt-field-error',
      text: a.understood ? tr('understoodAs', '“{term}” understood as: {codes}', { term: a.term, codes: labels(a.codes) })
        : tr('notUnderstood', '“{term}” is not an allergen we know. Closest: {codes}.', { term: a.term, codes: labels(a.nearest) }) })));
    avoidShown.replaceChildren(...(answer?.aversions ?? []).map((a) => h('li', {
      testid: 'aversion-understood', 'data-recognised': String(a.recognised), class: a.recognised ? 'ok' : 'muted',
      text: a.recognised ? tr('aversionRecognised', '“{term}”: {foods}', { term: a.term,
        foods: [...a.foods.map((f) => f.label), ...a.families].join(', ') || a.term })
        : tr('aversionUnknown', '“{term}”: not recognised (kept as you wrote it)', { term: a.term }) })));
  };
  let asked = 0;
  const refresh = async () => {
    if (!understand) return;
    const body = { allergies: splitList(other.value), food_aversions: splitList(avoid.value), diet_pattern: diet() || 'omnivore' };
    const mine = ++asked;
    try {
      const answer = await understand(body);
      if (mine === asked) show(answer);
    } catch {
      // shown back when the service answers; the start itself still refuses what it cannot map
    }
  };
  const later = debounce(refresh, 300);
  other.addEventListener('input', later);
  avoid.addEventListener('input', later);
  if (other.value || avoid.value) refresh();
  return { nodes: [picker, otherBox, avoidBox], read, refresh };
}
