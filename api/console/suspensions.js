/**
 * The live sections of a suspended tool use: the confirmation (the action in words, Approve / Reject /
 * Edit input as a small form) and the disambiguation picker. They only build DOM and report the
 * person's choice; ToolCard locks them and calls the network handlers.
 */
import { h, stableJson } from './dom.js';
import { describe } from './details.js';
import { translateNode } from './i18n.js';
import { localizeText } from './localize.js';
import { inputForm, readForm } from './schema_form.js';

/**
 * @param {{toolUseId: string, input: object, inputSchema?: object, summary?: string, confirm: string, canEdit: boolean,
 *          onDecision: (approved: boolean, input: object|null, button: HTMLElement) => void}} o
 */
export function buildConfirmSection({ toolUseId, input, inputSchema, summary, details, fallbackSummary, confirm, canEdit, onDecision }) {
  const original = input && typeof input === 'object' && !Array.isArray(input) ? input : {};
  const formId = `editor-${toolUseId}`;
  const destructive = confirm === 'destructive';
  const fields = describe(original);
  const preview = fields ? h('details', { class: 'confirm-technical' }, h('summary', { i18n: 'confirm.technical' }),
    fields) : null;
  const form = inputForm(original, inputSchema, formId);
  const fieldError = h('p', { class: 'field-error', testid: 'input-error', role: 'alert', hidden: true });
  const approve = h('button', {
    type: 'button',
    class: `btn ${destructive ? 'danger' : 'primary'}`,
    testid: 'approve',
    i18n: 'confirm.approve',
  });
  const reject = h('button', { type: 'button', class: 'btn', testid: 'reject', i18n: 'confirm.reject' });
  const edit = canEdit && Object.keys(original).length
    ? h('button', {
        type: 'button',
        class: 'btn ghost',
        testid: 'edit-input',
        i18n: 'confirm.editInput',
        'aria-expanded': 'false',
        'aria-controls': formId,
      })
    : null;

  const showFieldError = (key) => {
    fieldError.dataset.i18n = 'confirm.invalidField';
    const label = form.querySelector(`label[for="${CSS.escape(`${formId}-${key}`)}"]`)?.textContent;
    fieldError.dataset.i18nVars = JSON.stringify({ field: label || key });
    translateNode(fieldError);
    fieldError.hidden = false;
    form.querySelector(`[data-key="${CSS.escape(key)}"]`)?.focus();
  };

  edit?.addEventListener('click', () => {
    const open = form.hidden;
    form.hidden = !open;
    edit.setAttribute('aria-expanded', String(open));
    edit.classList.toggle('active', open);
    if (open) form.querySelector('[data-key]')?.focus();
    else fieldError.hidden = true;
  });
  form.addEventListener('input', () => {
    fieldError.hidden = true;
  });
  approve.addEventListener('click', () => {
    let edited = null;
    if (!form.hidden) {
      let parsed;
      try {
        parsed = readForm(form, original);
      } catch (err) {
        showFieldError(err?.key ?? '');
        return;
      }
      // Unchanged input is not an edit: the server must not tell the model it was edited.
      if (stableJson(parsed) !== stableJson(original)) edited = parsed;
    }
    onDecision(true, edited, approve);
  });
  reject.addEventListener('click', () => onDecision(false, null, reject));

  return h(
    'section',
    {
      class: destructive ? 'confirm confirm-destructive' : 'confirm',
      testid: 'confirm-card',
      'data-tool-use-id': toolUseId,
      'data-confirm': confirm ?? null,
    },
    h('p', { class: 'confirm-lead', i18n: destructive ? 'confirm.destructive' : 'confirm.always' }),
    summaryNode(summary || fallbackSummary || ''),
    // what the action is about, one line each (the booked members, each message and why), already in the reader's words
    Array.isArray(details) && details.length
      ? h('ul', { class: 'confirm-details', testid: 'confirm-details' },
        details.map((line) => h('li', { dir: 'auto', text: String(line) })))
      : null,
    preview,
    form,
    fieldError,
    h('div', { class: 'btn-row' }, approve, reject, edit),
  );
}

/** The action in words; an approval that lists its rows ('• ...' lines, '…and N more') shows them as a list. */
function summaryNode(text) {
  const [lead, ...rest] = text.split('\n');
  const items = rest.filter((line) => line.startsWith('• ')).map((line) => h('li', { dir: 'auto', text: localizeText(line.slice(2)) }));
  const after = rest.filter((line) => !line.startsWith('• ')).map((line) => h('p', { class: 'confirm-more', dir: 'auto', text: line }));
  return h('div', { class: 'confirm-summary', testid: 'confirm-summary' }, h('p', { dir: 'auto', text: lead }),
    items.length ? h('ul', { class: 'confirm-rows', testid: 'confirm-rows' }, items) : null, after);
}

function detailText(value) {
  if (typeof value === 'string') return localizeText(value);
  if (value && typeof value === 'object') return Object.values(value).filter((v) => v !== null && typeof v !== 'object').map(String).join(' · ');
  return String(value ?? '');
}

/**
 * @param {{toolUseId: string, kind?: string, prompt: string, candidates: object[],
 *          onPick: (candidate: object, button: HTMLElement) => void}} o
 */
export function buildPickerSection({ toolUseId, kind, prompt, candidates, onPick }) {
  const options = (candidates ?? []).map((candidate) => {
    const button = h(
      'button',
      { type: 'button', class: 'option', testid: 'pick-option', 'data-id': candidate.id },
      h('span', { class: 'option-label', dir: 'auto', text: candidate.label ?? candidate.id }),
      candidate.sublabel ? h('span', { class: 'option-sublabel', dir: 'auto', text: localizeText(candidate.sublabel) }) : null,
      candidate.detail != null ? h('span', { class: 'option-detail', dir: 'auto', text: detailText(candidate.detail) }) : null,
    );
    button.addEventListener('click', () => onPick(candidate, button));
    return button;
  });
  return h(
    'section',
    { class: 'picker', testid: 'picker-card', 'data-tool-use-id': toolUseId, 'data-kind': kind ?? null },
    h('p', { class: 'picker-prompt', dir: 'auto', text: prompt ?? '' }),
    h('div', { class: 'options', role: 'group', 'aria-label': prompt || null }, options),
  );
}
