/**
 * "Edit input" as a small form generated from the tool's input JSON schema (`inputSchema` on
 * confirmation_pending and on a reopened pending call): enums as selects, booleans as checkboxes (a
 * nullable boolean as any / yes / no), dates as date inputs, numbers as number inputs, text as text, lists
 * and objects as JSON. Without a schema the fields are typed from the input's values. Concurrency guards
 * (expected*) are kept as they were and not shown.
 */
import { h } from './dom.js';

const HIDDEN = /^expected[A-Z]/;

/** $ref into $defs, and `X | null` (anyOf with a null branch) → {schema: X, nullable}. */
function resolve(root, prop) {
  let node = prop ?? {};
  const deref = (n) => (n && n.$ref ? root.$defs?.[n.$ref.split('/').pop()] ?? {} : n);
  node = deref(node);
  let nullable = false;
  const branches = node.anyOf ?? node.oneOf;
  if (Array.isArray(branches)) {
    const real = branches.filter((b) => b.type !== 'null');
    nullable = real.length < branches.length;
    if (real.length === 1) node = { ...node, ...deref(real[0]), anyOf: undefined, oneOf: undefined };
  }
  return { schema: node, nullable };
}

function kindOf(schema, value) {
  if (Array.isArray(schema.enum)) return 'enum';
  if (schema.type === 'boolean') return 'boolean';
  if (schema.type === 'integer' || schema.type === 'number') return 'number';
  if (schema.type === 'string' && schema.format === 'date') return 'date';
  if (schema.type === 'string') return 'string';
  if (schema.type === 'array' || schema.type === 'object' || schema.anyOf || schema.oneOf) return 'json';
  // no schema for this field: go by the value
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'number';
  if (value !== null && typeof value === 'object') return 'json';
  return 'string';
}

/** "startDate" → "Start date", "from" → "From". */
function humanize(key) {
  const words = key.replace(/_+$/, '').replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function control(id, key, kind, schema, nullable, value, present) {
  const data = { id, 'data-key': key, 'data-kind': kind, 'data-nullable': nullable ? 'true' : null };
  if (kind === 'enum') {
    const blank = nullable || !present ? [h('option', { value: '', text: '—' })] : [];
    const select = h('select', { ...data, dir: 'ltr' }, blank,
      schema.enum.map((v) => h('option', { value: String(v), i18n: `fields.values.${v}`,
                                            'data-i18n-fallback': String(v).replace(/_/g, ' ') })));
    select.value = value == null ? '' : String(value);
    return select;
  }
  if (kind === 'boolean' && nullable) {
    const select = h('select', { ...data, 'data-kind': 'tristate' },
      h('option', { value: '', text: '—' }),
      h('option', { value: 'true', i18n: 'confirm.yes' }),
      h('option', { value: 'false', i18n: 'confirm.no' }));
    select.value = value == null ? '' : String(value);
    return select;
  }
  if (kind === 'boolean') {
    const box = h('input', { ...data, type: 'checkbox' });
    box.checked = value == null ? Boolean(schema.default) : Boolean(value);
    return box;
  }
  if (kind === 'number') {
    const input = h('input', {
      ...data, type: 'number', dir: 'ltr', step: schema.type === 'integer' ? '1' : 'any',
      min: schema.minimum ?? schema.exclusiveMinimum ?? null, max: schema.maximum ?? schema.exclusiveMaximum ?? null,
    });
    input.value = value == null ? '' : String(value);
    return input;
  }
  if (kind === 'date') {
    const input = h('input', { ...data, type: 'date', dir: 'ltr' });
    input.value = typeof value === 'string' ? value.slice(0, 10) : '';
    return input;
  }
  if (kind === 'json') {
    const area = h('textarea', { ...data, rows: 3, dir: 'ltr', spellcheck: 'false' });
    area.value = value === undefined || value === null ? '' : JSON.stringify(value);
    return area;
  }
  const uuid = schema.format === 'uuid';
  const input = h('input', { ...data, type: 'text', dir: uuid ? 'ltr' : 'auto', maxlength: schema.maxLength ?? null });
  input.value = value == null ? '' : String(value);
  return input;
}

/** The form: one field per schema property (or per input key when there is no schema). */
export function inputForm(original, schema, formId) {
  const root = schema && typeof schema === 'object' && schema.properties ? schema : null;
  const required = new Set(root?.required ?? []);
  const keys = root ? Object.keys(root.properties) : Object.keys(original);
  for (const key of Object.keys(original)) if (!keys.includes(key)) keys.push(key);
  const fields = keys.filter((key) => !HIDDEN.test(key)).map((key) => {
    const { schema: prop, nullable } = resolve(root ?? {}, root?.properties?.[key]);
    const present = Object.prototype.hasOwnProperty.call(original, key);
    const kind = kindOf(prop, original[key]);
    const id = `${formId}-${key}`;
    const input = control(id, key, kind, prop, nullable, original[key], present);
    input.dataset.present = String(present);
    input.dataset.required = String(required.has(key));
    if (kind === 'boolean' && !nullable) input.dataset.default = String(Boolean(prop.default));
    // the schema's description is written for the model (it names tools and ids): not shown
    const label = h('label', { for: id, dir: 'auto', i18n: `fields.${key}`, 'data-i18n-fallback': humanize(key) });
    return h('div', { class: `form-field form-${kind}`, testid: 'input-field', 'data-field': key }, label, input);
  });
  return h('div', { class: 'input-form', id: formId, testid: 'input-editor', hidden: true }, fields);
}

/** The edited input (the original with the form's fields applied), or throws {key} naming a field that
 * does not parse or a required field left empty. */
export function readForm(form, original) {
  const out = { ...original };
  for (const c of form.querySelectorAll('[data-key]')) {
    const { key, kind } = c.dataset;
    const present = c.dataset.present === 'true';
    const required = c.dataset.required === 'true';
    const nullable = c.dataset.nullable === 'true';
    if (kind === 'boolean') {
      if (present || String(c.checked) !== c.dataset.default) out[key] = c.checked;
      continue;
    }
    const raw = c.value.trim();
    if (raw === '') {
      if (required) throw { key };
      if (present && nullable) out[key] = null;
      else delete out[key];
      continue;
    }
    if (kind === 'number') {
      const n = Number(raw);
      if (Number.isNaN(n)) throw { key };
      out[key] = n;
    } else if (kind === 'tristate') out[key] = raw === 'true';
    else if (kind === 'json') {
      try {
        out[key] = JSON.parse(raw);
      } catch {
        throw { key };
      }
    } else out[key] = kind === 'string' ? c.value : raw;
  }
  return out;
}
