/** The nutrition page's forms: a new run's intake and the weekly check-in. */
import { h } from './dom.js';
import { enumLabel, tr } from './nutrition-words.js';
import { newKey } from './nutrition-api.js';

/** The demo member's intake (NUTRITION.md, Demo): a starting point the staff edit before starting. */
export const SAMPLE_INTAKE = {
  sex: 'female', age: 28, height_cm: 165, current_weight_kg: 56.2, target_weight_kg: 62,
  training_phase: 'active_training', estimated_daily_intake_kcal: 1700, avg_daily_steps: 6500,
  menstrual_status: 'regular', training_experience: 'beginner',
  food_aversions: ['peanut_butter', 'nut_butters'], appetite_level: 'low', cooking_skill: 'basic',
  partner_cooks: true, equipment_access: 'commercial_gym', gym_anxiety_level: 'high',
  medical_history: { medications: [], conditions: [], injuries: [] },
};

function field(label, input) {
  return h('label', { class: 'nt-field' }, h('span', { class: 'field-label', text: label }), input);
}

// [path in the intake, kind, English label]: a list of options (a select), int / num, bool, list (comma-separated).
const INTAKE_FIELDS = [
  ['sex', ['female', 'male'], 'Sex'],
  ['age', 'int', 'Age'],
  ['height_cm', 'num', 'Height (cm)'],
  ['current_weight_kg', 'num', 'Weight (kg)'],
  ['target_weight_kg', 'num', 'Target weight (kg)'],
  ['avg_daily_steps', 'int', 'Daily steps'],
  ['estimated_daily_intake_kcal', 'int', 'Eats now (kcal/day)'],
  ['training_phase', ['pre_training', 'active_training'], 'Training phase'],
  ['training_experience', ['none', 'beginner', 'intermediate'], 'Experience'],
  ['menstrual_status', ['regular', 'irregular', 'amenorrhea', ''], 'Menstrual status'],
  ['appetite_level', ['low', 'normal', 'high'], 'Appetite'],
  ['equipment_access', ['home_minimal', 'home_full', 'commercial_gym', 'both'], 'Equipment'],
  ['cooking_skill', ['basic', 'intermediate', 'advanced'], 'Cooking skill'],
  ['gym_anxiety_level', ['low', 'moderate', 'high'], 'Unease at the gym'],
  ['partner_cooks', 'bool', 'A partner cooks'],
  ['food_aversions', 'list', 'Foods to avoid'],
  ['medical_history.conditions', 'list', 'Medical conditions'],
  ['medical_history.medications', 'list', 'Medications'],
  ['medical_history.injuries', 'list', 'Injuries'],
];

const leaf = (path) => path.split('.').at(-1);
const sampleAt = (path) => path.split('.').reduce((node, key) => node?.[key], SAMPLE_INTAKE);

function intakeInput(path, kind) {
  const value = sampleAt(path);
  const testid = `intake-${leaf(path)}`;
  if (Array.isArray(kind)) {
    const select = h('select', { testid, name: path },
      kind.map((option) => h('option', { value: option, text: enumLabel(leaf(path), option) })));
    select.value = value;
    return select;
  }
  if (kind === 'bool') return h('input', { type: 'checkbox', testid, name: path, checked: Boolean(value) });
  if (kind === 'list') return h('input', { type: 'text', testid, name: path, dir: 'auto', value: (value ?? []).join(', ') });
  return h('input', { type: 'number', step: kind === 'int' ? '1' : '0.1', testid, name: path, value: String(value) });
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

/** onSubmit(intake) → Promise; errors are shown by the caller. Every intake field, pre-filled with the demo's. */
export function intakeForm(onSubmit, onCancel, who = null) {
  const inputs = INTAKE_FIELDS.map(([path, kind, label]) => [path, kind, label, intakeInput(path, kind)]);
  const fieldOf = ([path, kind, label, input]) => (kind === 'bool'
    ? h('label', { class: 'nt-field nt-check' }, input, h('span', { text: tr(`intake.${leaf(path)}`, label) }))
    : field(tr(`intake.${leaf(path)}`, label), input));
  const form = h('form', { class: 'nt-form nt-panel', testid: 'intake-form' },
    h('h2', { text: tr('intakeTitle', 'New run: intake') }),
    who ? h('p', { class: 'muted', testid: 'intake-member', text: tr('intakeFor', 'For {name}', { name: who }) }) : null,
    h('div', { class: 'nt-grid' }, inputs.filter(([, kind]) => kind !== 'list').map(fieldOf)),
    h('div', { class: 'nt-grid nt-grid-wide' }, inputs.filter(([, kind]) => kind === 'list').map(fieldOf)),
    h('p', { class: 'muted small', text: tr('listHelp', 'Lists: separate items with commas.') }),
    h('div', { class: 'nt-actions' },
      h('button', { type: 'submit', class: 'btn primary', testid: 'start-run', text: tr('start', 'Start run') }),
      h('button', { type: 'button', class: 'btn ghost', text: tr('cancel', 'Cancel'), onclick: onCancel })));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const intake = {};
    for (const [path, kind, , input] of inputs) setPath(intake, path, readInput(kind, input));
    const button = form.querySelector('[data-testid="start-run"]');
    button.disabled = true;
    try {
      await onSubmit(intake);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

const number = (testid, attrs = {}) => h('input', { type: 'number', step: '0.1', inputmode: 'decimal', testid, ...attrs });

/** onSubmit(checkin) → Promise. */
export function checkinForm(onSubmit) {
  const weight = number('checkin-weight');
  const waist = number('checkin-waist');
  const hip = number('checkin-hip');
  const date = h('input', { type: 'date', testid: 'checkin-date' });
  const phase = h('select', { testid: 'checkin-cycle' },
    h('option', { value: '', text: '—' }),
    ['follicular', 'ovulatory', 'luteal', 'menstrual'].map((p) => h('option', { value: p, text: enumLabel('cycle', p) })));
  const sessions = number('checkin-sessions', { step: '1', min: 0, max: 21 });
  const notes = h('textarea', { rows: 2, testid: 'checkin-notes', dir: 'auto', maxlength: 2000 });
  const submit = h('button', { type: 'submit', class: 'btn primary', testid: 'checkin-submit', text: tr('submitCheckin', 'Submit check-in') });
  const form = h('form', { class: 'nt-form nt-checkin', testid: 'checkin-form' },
    h('div', { class: 'nt-grid' },
      field(tr('field.weight_kg', 'Weight (kg)'), weight), field(tr('field.waist_cm', 'Waist (cm)'), waist),
      field(tr('field.hip_cm', 'Hips (cm)'), hip), field(tr('field.checkin_date', 'Check-in date'), date),
      field(tr('field.cycle_phase', 'Cycle phase'), phase), field(tr('field.sessions_completed', 'Sessions done'), sessions)),
    field(tr('field.notes', 'Notes'), notes), h('p', { class: 'muted small', text: tr('checkinHelp',
      'The first check-in needs waist and hips, then every two weeks.') }), h('div', { class: 'nt-actions' }, submit));
  const key = newKey(); // this form's check-in: sent twice (a double tap, a retry), it is recorded once
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = weight.value ? { weight_kg: Number(weight.value) } : {};
    if (waist.value) body.waist_cm = Number(waist.value);
    if (hip.value) body.hip_cm = Number(hip.value);
    if (date.value) body.checkin_date = date.value;
    if (phase.value) body.cycle_phase = phase.value;
    if (sessions.value) body.training_log = { sessions_completed: Number(sessions.value), exercises: [] };
    if (notes.value.trim()) body.notes = notes.value.trim();
    submit.disabled = true;
    try {
      await onSubmit(body, key);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
