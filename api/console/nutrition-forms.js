/**
 * The nutrition page's forms: a new run's intake and the weekly check-in. The intake starts from the member's own
 * data (GET …/members/{id}/intake-draft: their last answers, else their training profile, else empty; never a
 * sample member's), in their units (kg and cm, or lb and in); required fields are marked, and the service's
 * per-field errors (422 validation_failed) show under their fields (nutrition-fields.js).
 */
import { h } from './dom.js';
import { foodConstraints } from './nutrition-allergies.js';
import { FormErrors, fieldBox, setRequired } from './nutrition-fields.js';
import { enumLabel, formatDay, tr } from './nutrition-words.js';
import { newKey } from './nutrition-api.js';
import { screeningFieldset } from './nutrition-safety.js';

const KG_PER_LB = 0.45359237;
const CM_PER_INCH = 2.54;
// metric name -> [imperial name, metric units per imperial unit] (gym/nutrition/units.py)
const IMPERIAL = { height_cm: ['height_in', CM_PER_INCH], current_weight_kg: ['current_weight_lb', KG_PER_LB],
  target_weight_kg: ['target_weight_lb', KG_PER_LB] };

// [path in the intake, kind, English label, required]: kind is a list of options (a select), int / num, bool or
// list (comma-separated). Required as IntakeData requires it; menstrual status only for women ('female'). Allergies
// and foods to avoid are asked apart (nutrition-allergies.js): a picker of the codes plus the member's own words.
const INTAKE_FIELDS = [
  ['sex', ['female', 'male'], 'Sex', true],
  ['age', 'int', 'Age', true],
  ['height_cm', 'num', 'Height (cm)', true],
  ['current_weight_kg', 'num', 'Weight (kg)', true],
  ['target_weight_kg', 'num', 'Target weight (kg)', true],
  ['avg_daily_steps', 'int', 'Daily steps', true],
  ['estimated_daily_intake_kcal', 'int', 'Eats now (kcal/day)', true],
  ['training_phase', ['pre_training', 'active_training'], 'Training phase', true],
  ['training_experience', ['none', 'beginner', 'intermediate'], 'Experience', true],
  ['menstrual_status', ['regular', 'irregular', 'amenorrhea', 'perimenopausal', 'postmenopausal'], 'Menstrual status', 'female'],
  ['appetite_level', ['low', 'normal', 'high'], 'Appetite', true],
  ['equipment_access', ['home_minimal', 'home_full', 'commercial_gym', 'both'], 'Equipment', true],
  ['cooking_skill', ['basic', 'intermediate', 'advanced'], 'Cooking skill', true],
  ['gym_anxiety_level', ['low', 'moderate', 'high'], 'Unease at the gym', true],
  ['partner_cooks', 'bool', 'A partner cooks', false],
  ['diet_pattern', ['omnivore', 'pescatarian', 'vegetarian', 'vegan', 'kosher', 'halal'], 'Diet', false],
  ['medical_history.conditions', 'list', 'Medical conditions', false],
  ['medical_history.medications', 'list', 'Medications', false],
  ['medical_history.injuries', 'list', 'Injuries', false],
];

const leaf = (path) => path.split('.').at(-1);
const valueAt = (source, path) => path.split('.').reduce((node, key) => node?.[key], source);
const round1 = (value) => Math.round(value * 10) / 10;

function intakeInput(path, kind, value) {
  const props = { testid: `intake-${leaf(path)}`, name: path };
  if (Array.isArray(kind)) {
    const select = h('select', props, h('option', { value: '', text: tr('choose', 'Choose…') }),
      kind.map((option) => h('option', { value: option, text: enumLabel(leaf(path), option) })));
    select.value = kind.includes(value) ? value : '';
    return select;
  }
  if (kind === 'bool') return h('input', { ...props, type: 'checkbox', checked: Boolean(value) });
  if (kind === 'list') return h('input', { ...props, type: 'text', dir: 'auto', value: Array.isArray(value) ? value.join(', ') : '' });
  return h('input', { ...props, type: 'number', step: kind === 'int' ? '1' : '0.1', inputmode: kind === 'int' ? 'numeric' : 'decimal',
    value: typeof value === 'number' ? String(value) : '' });
}

function readInput(kind, input) {
  if (Array.isArray(kind)) return input.value;
  if (kind === 'bool') return input.checked;
  if (kind === 'list') return input.value.split(/[,،;]/).map((item) => item.trim()).filter(Boolean);
  return input.value === '' ? '' : Number(input.value);
}

function setPath(target, path, value) {
  const keys = path.split('.');
  const last = keys.pop();
  const node = keys.reduce((at, key) => (at[key] ??= {}), target);
  if (value === '') delete node[last];
  else node[last] = value;
}

/** Where the form's values come from, said to the reader (testid intake-source, data-source). */
function sourceNote(draft) {
  const source = draft?.source ?? 'none';
  const text = source === 'last_run'
    ? tr('draft.lastRun', 'Filled in from the answers of the last plan ({date}): check they are still right.',
      { date: draft.sourceDate ? formatDay(draft.sourceDate) : '—' })
    : source === 'profile'
      ? tr('draft.profile', 'Filled in from the training profile: check it and fill in the rest.')
      : tr('draft.empty', 'Fill in the details below.');
  return h('p', { class: 'muted', testid: 'intake-source', 'data-source': source },
    text, ' ', h('span', { text: tr('requiredHelp', 'Fields marked * are required.') }));
}

/**
 * The intake form. `draft` is the intake-draft answer (or null: empty); onSubmit(intake) → Promise that throws
 * the endpoint's error, shown in the form (field errors under their fields); onError(err) may add nodes to it.
 */
export function intakeForm({ draft = null, onSubmit, onCancel, who = null, onError = () => [], understand = null }) {
  const imperial = draft?.units?.weightUnit === 'lbs';
  const start = draft?.intake ?? {};
  const fields = INTAKE_FIELDS.map(([path, kind, label, required]) => {
    let name = path;
    let value = valueAt(start, path);
    if (imperial && IMPERIAL[path]) {
      const [other, factor] = IMPERIAL[path];
      name = other;
      value = typeof value === 'number' ? round1(value / factor) : value;
    }
    const input = intakeInput(name, kind, value);
    const box = fieldBox(tr(`intake.${leaf(name)}`, label), input, { required: required === true, check: kind === 'bool' });
    return { path: name, kind, required, input, box };
  });
  const byPath = Object.fromEntries(fields.map((f) => [f.path, f]));
  const sex = byPath.sex.input;
  const menstrual = byPath.menstrual_status;
  const followSex = () => { // asked of women (required) and of anyone who has not said; not of men
    menstrual.box.hidden = sex.value === 'male';
    setRequired(menstrual.box, sex.value === 'female');
  };
  sex.addEventListener('change', followSex);
  followSex();
  const food = foodConstraints({ allergies: start.allergies ?? [], aversions: start.food_aversions ?? [], understand,
    diet: () => byPath.diet_pattern.input.value });
  byPath.diet_pattern.input.addEventListener('change', () => food.refresh());
  const submit = h('button', { type: 'submit', class: 'btn primary', testid: 'start-run', text: tr('start', 'Make the plan') });
  const form = h('form', { class: 'nt-form nt-panel', testid: 'intake-form', novalidate: true },
    h('h2', { text: tr('intakeTitle', 'Make a new plan') }),
    who ? h('p', { class: 'muted', testid: 'intake-member', text: tr('intakeFor', 'For {name}', { name: who }) }) : null,
    sourceNote(draft));
  const errors = new FormErrors(form, { aliases: (name) => name.replace(/^intake\./, '').split('.').filter((p) => !/^\d+$/.test(p)).join('.') });
  const screening = screeningFieldset(start.screening);
  form.append(errors.summary,
    h('div', { class: 'nt-grid' }, fields.filter((f) => f.kind !== 'list').map((f) => f.box)),
    h('div', { class: 'nt-food-constraints' }, food.nodes),
    h('div', { class: 'nt-grid nt-grid-wide' }, fields.filter((f) => f.kind === 'list').map((f) => f.box)),
    screening.element,
    h('p', { class: 'muted small', text: tr('listHelp', 'Lists: separate items with commas.') }),
    h('div', { class: 'nt-actions' }, submit,
      h('button', { type: 'button', class: 'btn ghost', text: tr('cancel', 'Cancel'), onclick: onCancel })));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const intake = {};
    for (const f of fields) {
      if (!f.box.hidden) setPath(intake, f.path, readInput(f.kind, f.input));
    }
    intake.screening = screening.read(); // every PAR-Q+ question must be answered: the service says which is not
    Object.assign(intake, food.read());
    errors.clear();
    submit.disabled = true;
    try {
      await onSubmit(intake);
    } catch (err) {
      errors.show(err, ...(onError(err) ?? []));
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

const number = (testid, name, attrs = {}) => h('input', { type: 'number', step: '0.1', inputmode: 'decimal', testid, name, ...attrs });

/**
 * The weekly check-in. onSubmit(checkin, key) → Promise that throws the endpoint's error, shown in the form;
 * onError(err, checkin, retry) may add nodes to it (retry(body) sends again with the same key).
 */
export function checkinForm({ onSubmit, onError = () => [] }) {
  const weight = number('checkin-weight', 'weight_kg');
  const waist = number('checkin-waist', 'waist_cm');
  const hip = number('checkin-hip', 'hip_cm');
  const date = h('input', { type: 'date', testid: 'checkin-date', name: 'checkin_date' });
  const phase = h('select', { testid: 'checkin-cycle', name: 'cycle_phase' },
    h('option', { value: '', text: '—' }),
    ['follicular', 'ovulatory', 'luteal', 'menstrual'].map((p) => h('option', { value: p, text: enumLabel('cycle', p) })));
  const sessions = number('checkin-sessions', 'training_log.sessions_completed', { step: '1', min: 0, max: 21, inputmode: 'numeric' });
  const notes = h('textarea', { rows: 2, testid: 'checkin-notes', name: 'notes', dir: 'auto', maxlength: 2000 });
  const submit = h('button', { type: 'submit', class: 'btn primary', testid: 'checkin-submit', text: tr('submitCheckin', 'Submit check-in') });
  const form = h('form', { class: 'nt-form nt-checkin', testid: 'checkin-form', novalidate: true });
  const errors = new FormErrors(form);
  form.append(errors.summary,
    h('div', { class: 'nt-grid' },
      fieldBox(tr('field.weight_kg', 'Weight (kg)'), weight, { required: true }),
      fieldBox(tr('field.waist_cm', 'Waist (cm)'), waist), fieldBox(tr('field.hip_cm', 'Hips (cm)'), hip),
      fieldBox(tr('field.checkin_date', 'Check-in date'), date), fieldBox(tr('field.cycle_phase', 'Cycle phase'), phase),
      fieldBox(tr('field.sessions_completed', 'Sessions done'), sessions)),
    fieldBox(tr('field.notes', 'Notes'), notes),
    h('p', { class: 'muted small', text: tr('checkinHelp', 'The first check-in needs waist and hips, then every two weeks.') }),
    h('p', { class: 'muted small', testid: 'checkin-weight-help', text: tr('checkinWeightHelp', 'Leave the weight empty to use the trend weight from the food log.') }),
    h('div', { class: 'nt-actions' }, submit));
  const key = newKey(); // this form's check-in: sent twice (a double tap, a retry), it is recorded once
  const send = async (body) => {
    errors.clear();
    submit.disabled = true;
    try {
      await onSubmit(body, key);
    } catch (err) {
      errors.show(err, ...(onError(err, body, send) ?? []));
    } finally {
      submit.disabled = false;
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const body = weight.value ? { weight_kg: Number(weight.value) } : {};
    if (waist.value) body.waist_cm = Number(waist.value);
    if (hip.value) body.hip_cm = Number(hip.value);
    if (date.value) body.checkin_date = date.value;
    if (phase.value) body.cycle_phase = phase.value;
    if (sessions.value) body.training_log = { sessions_completed: Number(sessions.value), exercises: [] };
    if (notes.value.trim()) body.notes = notes.value.trim();
    send(body);
  });
  return form;
}
