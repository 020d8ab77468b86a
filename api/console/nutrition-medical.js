/**
 * The PHYSICIAN on the nutrition page (NUTRITION.md, PHYSICIAN): a paused run's referral with the
 * acknowledge button, the user's health questions and their answers, and medical clearance after a run
 * ended on medical advice (owner, admin or coach, from a clinician's note; never the member themself).
 */
import { h } from './dom.js';
import { t } from './i18n.js';
import { enumLabel, tr } from './nutrition-words.js';
import { floorWords } from './nutrition-safety.js';

/** A button that stays disabled while its action runs. */
function actionButton(props, onClick) {
  const button = h('button', { type: 'button', ...props });
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await onClick();
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

/**
 * The PHYSICIAN's medical_context (004 §4.9) as people read it: the safety floor's words in the UI language when the
 * answer is the floor's (`floor_reasons`), else the physician's own.
 */
export function medicalContextView(c, testid = 'medical-context') {
  const floor = floorWords(c);
  const sources = floor ? [] : (c.sources ?? []).map((s) => [s.author, s.year, s.publication].filter(Boolean).join(', '));
  const said = floor ?? { response: c.response, mechanism: c.mechanism_explained, timeline: c.timeline,
    referral: c.referral_target, disclaimer: c.disclaimer };
  return h('div', { class: 'nt-medical', testid, 'data-floor': floor ? 'true' : 'false' },
    said.response ? h('p', { dir: 'auto', testid: 'medical-response', text: said.response }) : null,
    said.mechanism ? h('p', { dir: 'auto', class: 'muted', text: said.mechanism }) : null,
    h('dl', { class: 'nt-dl' },
      h('dt', { text: tr('urgency', 'Urgency') }),
      h('dd', { testid: 'medical-urgency', 'data-value': c.urgency, text: enumLabel('urgency', c.urgency) }),
      h('dt', { text: tr('pipelineAction', 'For the plan') }),
      h('dd', { testid: 'medical-action', 'data-value': c.pipeline_action, text: enumLabel('action', c.pipeline_action) }),
      c.referral_needed ? h('dt', { text: tr('referTo', 'Refer to') }) : null,
      c.referral_needed ? h('dd', { dir: 'auto', testid: 'referral-target', text: said.referral || '—' }) : null,
      said.timeline ? h('dt', { text: tr('when', 'When') }) : null,
      said.timeline ? h('dd', { dir: 'auto', text: said.timeline }) : null,
      sources.length ? h('dt', { text: tr('sources', 'Sources') }) : null,
      sources.length ? h('dd', { dir: 'auto', text: sources.join('; ') }) : null),
    said.disclaimer ? h('p', { class: 'muted small', dir: 'auto', testid: 'medical-disclaimer', text: said.disclaimer }) : null);
}

/** A run paused for a referral: the PHYSICIAN's latest context and the acknowledge button. */
export function referralPanel(context, onAcknowledge) {
  return h('section', { class: 'nt-referral nt-panel', testid: 'referral', role: 'region',
    'aria-label': tr('referralTitle', 'Paused: medical referral needed') },
  h('h3', { text: tr('referralTitle', 'Paused: medical referral needed') }),
  medicalContextView(context ?? {}),
  h('p', { class: 'muted', text: tr('referralHelp', 'Resume once the member has seen the referral.') }),
  actionButton({ class: 'btn primary', testid: 'acknowledge-referral', text: tr('acknowledge', 'Referral acknowledged — resume') },
    onAcknowledge));
}

/**
 * A run ended on medical advice (`terminated_medical`): what happened and what happens next, in words. `notice` is
 * the run detail's (a locale key: the member is told to see a clinician and that staff record the clearance;
 * their plan's numbers are not shown).
 */
export function terminatedNotice(context, notice = null) {
  const next = notice?.key ? t(notice.key.replace(/^console\./, ''), undefined, '') : '';
  return h('section', { class: 'nt-referral nt-panel danger', testid: 'terminated-medical', role: 'alert' },
    h('h3', { text: tr('terminatedTitle', 'Stopped on medical advice') }),
    next ? h('p', { testid: 'medical-hold', 'data-code': notice.code, 'data-targets-hidden': String(Boolean(notice.targetsHidden)), text: next })
      : h('p', { text: tr('terminatedHelp', 'The physician stopped this plan. A new plan needs medical clearance first.') }),
    context ? medicalContextView(context) : null);
}

/**
 * Record medical clearance for a member (owner, admin or coach, from a clinician's note); others read who can.
 * onRecord(note) → Promise that throws the endpoint's error; the panel shows it in words. `note`: the text typed so far.
 */
export function clearancePanel({ name, allowed, onRecord, note: typed = '' }) {
  const note = h('textarea', { rows: 2, testid: 'clearance-note', dir: 'auto', maxlength: 2000,
    'aria-label': tr('clearanceNote', 'Note (who cleared, when)') });
  note.value = typed;
  const message = h('p', { class: 'field-error', role: 'alert', testid: 'clearance-error', hidden: true });
  const done = h('p', { class: 'nt-ok', role: 'status', testid: 'clearance-done', hidden: true,
    text: tr('clearanceDone', 'Clearance recorded: a new run can start.') });
  const record = actionButton({ class: 'btn primary', testid: 'record-clearance', text: tr('recordClearance', 'Record medical clearance') },
    async () => {
      message.hidden = true;
      try {
        await onRecord(note.value.trim());
        done.hidden = false;
        record.hidden = true;
      } catch (err) {
        message.textContent = err?.message || String(err);
        message.hidden = false;
      }
    });
  return h('section', { class: 'nt-panel nt-clearance', testid: 'clearance' },
    h('h3', { text: tr('clearanceTitle', 'Medical clearance') }),
    h('p', { text: tr('clearanceNeeded', '{name} needs medical clearance before a new run.', { name: name || tr('thisMember', 'This member') }) }),
    allowed
      ? [h('label', { class: 'nt-field' }, h('span', { class: 'field-label', text: tr('clearanceNote', 'Note (who cleared, when)') }), note),
        message, done, h('div', { class: 'nt-actions' }, record)]
      : h('p', { class: 'muted', testid: 'clearance-who', text: tr('clearanceWho', "An owner, admin or coach records medical clearance from a clinician's note.") }));
}

/** Ask the PHYSICIAN a health question about this run; onAsk(query) → the medical_context, or throws. */
export function healthQuestionPanel(onAsk) {
  const query = h('textarea', { rows: 2, testid: 'health-query', dir: 'auto', maxlength: 2000,
    'aria-label': tr('healthQuestion', 'Your question') });
  const message = h('p', { class: 'field-error', role: 'alert', testid: 'health-error', hidden: true });
  const answer = h('div', { testid: 'health-answer' });
  const ask = h('button', { type: 'submit', class: 'btn', testid: 'health-ask', text: tr('askPhysician', 'Ask the physician') });
  const form = h('form', { class: 'nt-form' },
    h('label', { class: 'nt-field' }, h('span', { class: 'field-label', text: tr('healthQuestion', 'Your question') }), query),
    message, h('div', { class: 'nt-actions' }, ask), answer);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.hidden = true;
    const text = query.value.trim();
    if (!text) {
      message.textContent = tr('healthEmpty', 'Write a question first.');
      message.hidden = false;
      return;
    }
    ask.disabled = true;
    answer.replaceChildren(h('p', { class: 'muted', text: tr('asking', 'Asking the physician…') }));
    try {
      answer.replaceChildren(medicalContextView(await onAsk(text), 'health-context'));
    } catch (err) {
      answer.replaceChildren();
      message.textContent = err?.message || String(err);
      message.hidden = false;
    } finally {
      ask.disabled = false;
    }
  });
  return h('section', { class: 'nt-panel', testid: 'health-questions' },
    h('h3', { text: tr('healthTitle', 'Health questions') }),
    h('p', { class: 'muted small', text: tr('healthHelp', 'The physician answers about this plan; the plan itself does not change.') }),
    form);
}
