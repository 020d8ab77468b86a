/**
 * The safety side of the nutrition page (NUTRITION.md, "Clinical rules in code"), in the UI language
 * (console.nutrition.safety.* in locales/): the safety floor's own words for an answer that carries `floor_reasons`
 * (the offline physician's, or a model answer below the floor that the floor replaced — the model's text is never
 * shown), the PAR-Q+ questions of the intake asked as yes/no questions, and the limits the clinical rules put on a
 * member's plan.
 */
import { h } from './dom.js';
import { currentLocale } from './i18n.js';
import { tr } from './nutrition-words.js';

export const SCREENING = ['heart_condition', 'chest_pain_in_activity', 'chest_pain_at_rest_past_month', 'dizziness_or_fainting',
  'bone_or_joint_problem', 'heart_or_blood_pressure_medication', 'other_reason'];

const LEVEL = { abort: 'abort', continue: 'none' };
const capitalize = (text) => (text ? text.charAt(0).toLocaleUpperCase(currentLocale()) + text.slice(1) : text);
const unique = (items) => [...new Set(items.filter(Boolean))];

/** The floor's words for a medical_context that carries `floor_reasons`, else null (the model's own answer). */
export function floorWords(c) {
  if (!Array.isArray(c?.floor_reasons)) return null;
  const level = LEVEL[c.pipeline_action] ?? (c.urgency === 'urgent' ? 'urgent' : 'soon');
  const reasons = c.floor_reasons.map((code) => tr(`safety.floor.reason.${code}`, code.replace(/_/g, ' ')));
  const referral = unique(c.floor_reasons.map((code) => tr(`safety.floor.referral.${code}`, ''))).join('; ');
  return {
    response: tr(`safety.floor.response.${level}`, '', { reasons: capitalize(reasons.join('; ')) }),
    mechanism: tr(`safety.floor.mechanism.${level}`, ''),
    timeline: level === 'none' ? '' : tr(`safety.floor.timeline.${level}`, ''),
    referral: c.referral_needed ? referral : '',
    disclaimer: tr('safety.floor.disclaimer', c.disclaimer ?? ''),
  };
}

/**
 * The PAR-Q+ questions as a fieldset of yes/no questions, each a `.nt-field` named `screening.<question>` (so the
 * service's per-field errors, "required" for an unanswered one, land beside it); `start` is a previous answer to
 * start from. read() → the questions answered, as booleans.
 */
export function screeningFieldset(start = null) {
  const boxes = SCREENING.map((name) => {
    const group = `screening.${name}`;
    const choice = (value, label) => {
      const input = h('input', { type: 'radio', name: group, value, testid: `screening-${name}-${value}` });
      input.checked = typeof start?.[name] === 'boolean' && String(start[name]) === value;
      return h('label', { class: 'nt-choice' }, input, ' ', label);
    };
    const error = h('p', { class: 'nt-field-error', testid: 'field-error', role: 'alert', hidden: true });
    const question = h('legend', { class: 'field-label', text: tr(`safety.question.${name}`, name) });
    const box = h('fieldset', { class: 'nt-field nt-yesno required', testid: `screening-${name}` }, question,
      h('div', { class: 'nt-choices' }, choice('true', tr('safety.yes', 'Yes')), choice('false', tr('safety.no', 'No'))), error);
    box.dataset.field = group;
    box.addEventListener('change', () => { error.hidden = true; });
    return box;
  });
  const fieldset = h('section', { class: 'nt-screening', testid: 'intake-screening' },
    h('h3', { text: tr('safety.screeningTitle', 'Health questions before you start (PAR-Q+)') }),
    h('p', { class: 'muted small', text: tr('safety.screeningHelp', 'A yes to any question pauses the plan until a clinician has reviewed it.') }),
    boxes);
  const answer = (name) => fieldset.querySelector(`input[name="screening.${name}"]:checked`)?.value;
  return {
    element: fieldset,
    read: () => Object.fromEntries(SCREENING.filter((name) => answer(name) !== undefined)
      .map((name) => [name, answer(name) === 'true'])),
  };
}

/** What the clinical rules changed in this plan (no deficit, no creatine or stimulants), in words; null when none. */
export function clinicalNotes(notes) {
  if (!notes?.length) return null;
  return h('section', { class: 'nt-panel nt-clinical', testid: 'clinical-notes', role: 'note' },
    h('h3', { text: tr('safety.notesTitle', 'Limits for your safety') }),
    h('ul', {}, notes.map((code) => h('li', { 'data-code': code, text: tr(`safety.note.${code}`, code) }))));
}
