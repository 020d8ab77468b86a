/**
 * A form's fields and its errors, where people look for them: each field carries its label, a visible mark and
 * aria-required when it must be filled, and its own error right under it (the service's 422 per-field errors);
 * the form's top says what to fix, with a link to each field, and carries any error that is not a field's.
 */
import { h } from './dom.js';
import { fieldErrorLabel, fieldLabel, tr } from './nutrition-words.js';

let serial = 0;

/** A labelled field: `input` gets an id, and aria-required and a visible mark when `required`. */
export function fieldBox(label, input, { required = false, help = null, check = false } = {}) {
  input.id ||= `nt-f${++serial}`;
  const error = h('p', { class: 'nt-field-error', id: `${input.id}-error`, testid: 'field-error', role: 'alert', hidden: true });
  const mark = h('span', { class: 'nt-required', testid: 'required-mark', 'aria-hidden': 'true', text: '*' });
  const text = h('span', { class: 'field-label' }, label, ' ', mark);
  const hint = help ? h('span', { class: 'muted small', id: `${input.id}-help`, text: help }) : null;
  const box = check
    ? h('div', { class: 'nt-field nt-check' }, h('label', { for: input.id, class: 'nt-check-label' }, input, text), error)
    : h('div', { class: 'nt-field' }, h('label', { for: input.id }, text), input, hint, error);
  box.dataset.field = input.name ?? '';
  const edited = () => { // an error goes once its field is changed
    if (error.hidden) return;
    error.hidden = true;
    input.removeAttribute('aria-invalid');
  };
  input.addEventListener('input', edited);
  input.addEventListener('change', edited);
  setRequired(box, required);
  if (hint) input.setAttribute('aria-describedby', hint.id);
  return box;
}

/** Mark a field box required or not (menstrual status is required for women only). */
export function setRequired(box, required) {
  const input = box.querySelector('input, select, textarea');
  box.querySelector('[data-testid="required-mark"]').hidden = !required;
  box.classList.toggle('required', Boolean(required));
  if (required) input.setAttribute('aria-required', 'true');
  else input.removeAttribute('aria-required');
}

/**
 * The errors of one form. `summary` goes at the form's top; show(err) puts each per-field error under its field
 * (`aliases` maps a service field name to the form's, as "intake.age" → "age") and the rest in the summary.
 */
export class FormErrors {
  constructor(form, { aliases = (name) => name } = {}) {
    this.form = form;
    this.aliases = aliases;
    this.summary = h('div', { class: 'nt-form-errors', testid: 'form-error', role: 'alert', tabindex: '-1', hidden: true });
  }

  boxes() {
    return [...this.form.querySelectorAll('.nt-field[data-field]')].filter((box) => box.dataset.field);
  }

  clear() {
    this.summary.hidden = true;
    this.summary.replaceChildren();
    this.summary.removeAttribute('data-code');
    for (const box of this.boxes()) {
      const input = box.querySelector('input, select, textarea');
      const error = box.querySelector('[data-testid="field-error"]');
      error.hidden = true;
      error.textContent = '';
      error.removeAttribute('data-code');
      input.removeAttribute('aria-invalid');
      const help = input.getAttribute('aria-describedby')?.split(' ').filter((id) => id !== error.id).join(' ');
      if (help) input.setAttribute('aria-describedby', help);
      else input.removeAttribute('aria-describedby');
    }
  }

  /** The form's field box for a service field path, if the form has it. */
  boxFor(field, message = '') {
    const boxes = this.boxes();
    const name = this.aliases(String(field ?? ''));
    const exact = boxes.find((box) => box.dataset.field === name)
      ?? boxes.find((box) => box.dataset.field.split('.').at(-1) === name.split('.').at(-1) && name);
    if (exact) return exact;
    // a rule over the whole body names its field in its message ("menstrual_status is required when ...")
    return boxes.find((box) => message.includes(box.dataset.field.split('.').at(-1)));
  }

  /** Show an endpoint's error: per-field ones under their fields, the rest at the form's top; extras join the top. */
  show(err, ...extras) {
    this.clear();
    const listed = [];
    const loose = [];
    for (const e of err?.errors ?? []) {
      const box = this.boxFor(e.field, e.message ?? '');
      if (!box) {
        loose.push(`${fieldLabel(e.field)}: ${fieldErrorLabel(e.code)}`);
        continue;
      }
      const input = box.querySelector('input, select, textarea');
      const error = box.querySelector('[data-testid="field-error"]');
      const code = e.code === 'value_error' && box.classList.contains('required') ? 'missing' : e.code;
      error.textContent = fieldErrorLabel(code);
      error.dataset.code = code;
      error.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', [input.getAttribute('aria-describedby'), error.id].filter(Boolean).join(' '));
      if (!listed.some(([b]) => b === box)) listed.push([box, input]);
    }
    if (err?.code) this.summary.dataset.code = err.code;
    const links = listed.map(([box, input]) => h('li', {}, h('a', { href: `#${input.id}`, 'data-field': box.dataset.field,
      text: box.querySelector('.field-label').firstChild.textContent,
      onclick: (event) => { event.preventDefault(); input.focus(); } })));
    const head = listed.length ? tr('fixFields', 'Please check these fields:') : String(err?.message || err?.code || err);
    this.summary.replaceChildren(h('p', { class: 'nt-form-errors-head', text: head }),
      links.length ? h('ul', {}, links) : null, ...loose.map((text) => h('p', { text })), ...extras);
    this.summary.hidden = false;
    (listed.length ? listed[0][1] : this.summary).focus(); // focus scrolls it into view
  }
}
