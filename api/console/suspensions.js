/**
 * The live sections of a suspended tool use: the confirmation (Approve / Reject / Edit input
 * with a JSON editor) and the disambiguation picker. They only build DOM and report the
 * person's choice; ToolCard locks them and calls the network handlers.
 */
import { h, pretty, stableJson } from './dom.js';
import { translateNode } from './i18n.js';

/**
 * @param {{toolUseId: string, input: object, confirm: string, canEdit: boolean,
 *          onDecision: (approved: boolean, input: object|null, button: HTMLElement) => void}} o
 */
export function buildConfirmSection({ toolUseId, input, confirm, canEdit, onDecision }) {
  const original = input ?? {};
  const text = pretty(original);
  const editorId = `editor-${toolUseId}`;
  const destructive = confirm === 'destructive';
  const preview = h('pre', { class: 'json', dir: 'ltr', text });
  const editor = h('textarea', {
    id: editorId,
    class: 'json-editor',
    dir: 'ltr',
    spellcheck: 'false',
    rows: Math.min(16, Math.max(4, text.split('\n').length + 1)),
    testid: 'input-editor',
    'data-i18n-aria-label': 'confirm.editorLabel',
    hidden: true,
  });
  editor.value = text;
  const fieldError = h('p', { class: 'field-error', testid: 'input-error', role: 'alert', hidden: true });
  const approve = h('button', {
    type: 'button',
    class: `btn ${destructive ? 'danger' : 'primary'}`,
    testid: 'approve',
    i18n: 'confirm.approve',
  });
  const reject = h('button', { type: 'button', class: 'btn', testid: 'reject', i18n: 'confirm.reject' });
  const edit = canEdit
    ? h('button', {
        type: 'button',
        class: 'btn ghost',
        testid: 'edit-input',
        i18n: 'confirm.editInput',
        'aria-expanded': 'false',
        'aria-controls': editorId,
      })
    : null;

  const showFieldError = (key, detail) => {
    fieldError.dataset.i18n = key;
    translateNode(fieldError);
    fieldError.title = detail ?? '';
    fieldError.hidden = false;
    editor.setAttribute('aria-invalid', 'true');
    editor.focus();
  };

  edit?.addEventListener('click', () => {
    const open = editor.hidden;
    editor.hidden = !open;
    preview.hidden = open;
    edit.setAttribute('aria-expanded', String(open));
    edit.classList.toggle('active', open);
    if (open) editor.focus();
    else fieldError.hidden = true;
  });
  editor.addEventListener('input', () => {
    fieldError.hidden = true;
    editor.removeAttribute('aria-invalid');
  });
  approve.addEventListener('click', () => {
    let edited = null;
    if (!editor.hidden) {
      let parsed;
      try {
        parsed = JSON.parse(editor.value);
      } catch (err) {
        showFieldError('confirm.invalidJson', err?.message);
        return;
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
        showFieldError('confirm.notObject');
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
    preview,
    editor,
    fieldError,
    h('div', { class: 'btn-row' }, approve, reject, edit),
  );
}

function detailText(value) {
  return typeof value === 'string' ? value : pretty(value);
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
      candidate.sublabel ? h('span', { class: 'option-sublabel', dir: 'auto', text: candidate.sublabel }) : null,
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
