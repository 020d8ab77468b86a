/** The nutrition page's forms: a new run's intake and the weekly check-in. */
import { h } from './dom.js';
import { enumLabel, tr } from './nutrition-words.js';

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
];

function intakeInput(name, kind) {
  const value = SAMPLE_INTAKE[name];
  if (Array.isArray(kind)) {
    const select = h('select', { testid: `intake-${name}`, name },
      kind.map((option) => h('option', { value: option, text: enumLabel(name, option) })));
    select.value = value;
    return select;
  }
  return h('input', { type: 'number', step: kind === 'int' ? '1' : '0.1', testid: `intake-${name}`, name, value: String(value) });
}

/** onSubmit(intake) → Promise; errors are shown by the caller. The main fields, then the rest as JSON. */
export function intakeForm(onSubmit, onCancel, who = null) {
  const inputs = INTAKE_FIELDS.map(([name, kind, label]) => [name, kind, label, intakeInput(name, kind)]);
  const rest = Object.fromEntries(Object.entries(SAMPLE_INTAKE).filter(([key]) => !INTAKE_FIELDS.some(([name]) => name === key)));
  const text = h('textarea', { class: 'nt-json', testid: 'intake-json', rows: 12, dir: 'ltr', spellcheck: 'false',
    'aria-label': tr('moreIntake', 'More intake fields (JSON)') });
  text.value = JSON.stringify(rest, null, 2);
  const error = h('p', { class: 'field-error', role: 'alert', testid: 'intake-error', hidden: true });
  const form = h('form', { class: 'nt-form nt-panel', testid: 'intake-form' },
    h('h2', { text: tr('intakeTitle', 'New run: intake') }),
    who ? h('p', { class: 'muted', testid: 'intake-member', dir: 'auto', text: tr('intakeFor', 'For {name}', { name: who }) }) : null,
    h('div', { class: 'nt-grid' }, inputs.map(([name, , label, input]) => field(tr(`intake.${name}`, label), input))),
    h('details', {}, h('summary', { text: tr('moreIntake', 'More intake fields (JSON)') }), text), error,
    h('div', { class: 'nt-actions' },
      h('button', { type: 'submit', class: 'btn primary', testid: 'start-run', text: tr('start', 'Start run') }),
      h('button', { type: 'button', class: 'btn ghost', text: tr('cancel', 'Cancel'), onclick: onCancel })));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    let intake;
    try {
      intake = JSON.parse(text.value);
    } catch {
      error.textContent = tr('badJson', 'The extra intake fields are not valid JSON.');
      error.hidden = false;
      return;
    }
    for (const [name, kind, , input] of inputs) {
      intake[name] = Array.isArray(kind) ? input.value : Number(input.value);
      if (intake[name] === '') delete intake[name];
    }
    await onSubmit(intake);
  });
  return form;
}

const number = (testid, attrs = {}) => h('input', { type: 'number', step: '0.1', inputmode: 'decimal', testid, ...attrs });

/** onSubmit(checkin) → Promise. */
export function checkinForm(onSubmit) {
  const weight = number('checkin-weight', { required: true, min: 25, max: 350 });
  const waist = number('checkin-waist', { min: 0 });
  const hip = number('checkin-hip', { min: 0 });
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
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { weight_kg: Number(weight.value) };
    if (waist.value) body.waist_cm = Number(waist.value);
    if (hip.value) body.hip_cm = Number(hip.value);
    if (date.value) body.checkin_date = date.value;
    if (phase.value) body.cycle_phase = phase.value;
    if (sessions.value) body.training_log = { sessions_completed: Number(sessions.value), exercises: [] };
    if (notes.value.trim()) body.notes = notes.value.trim();
    submit.disabled = true;
    try {
      await onSubmit(body);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
