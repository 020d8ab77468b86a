/**
 * A tool's input and output as people read them under a card's "Details": field names from locales
 * (console.fields.*), yes/no for booleans, numbers, dates and money through Intl, lists as lists. Ids,
 * fingerprints and other internal values are left out, and nothing is shown as JSON.
 */
import { h } from './dom.js';
import { t, hasKey, formatNumber } from './i18n.js';
import { localizeText } from './localize.js';

const INTERNAL = /^(?:id|ids|fingerprint|expectedFingerprint|expectedIds|changedIds|idsComplete|idsTruncated|next|_.*)$|Ids?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_ITEMS = 20;

/** A field's name in the reader's language; words made of its camelCase where locales have none yet. */
export function fieldLabel(key) {
  if (hasKey(`fields.${key}`)) return t(`fields.${key}`);
  const words = key.replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function shown(key, value) {
  if (value === null || value === undefined || value === '' || INTERNAL.test(key)) return false;
  if (typeof value === 'string' && UUID.test(value)) return false;
  if (Array.isArray(value)) return value.some((item) => !(typeof item === 'string' && UUID.test(item)));
  return true;
}

/** One value as text: yes/no, a number, a date, a period's name, or the words as written. */
export function valueText(key, value) {
  if (typeof value === 'boolean') return t(value ? 'chat.yes' : 'chat.no');
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'string') {
    if (hasKey(`fields.values.${value}`)) return t(`fields.values.${value}`);
    return localizeText(value);
  }
  return '';
}

function entries(value) {
  return Object.entries(value).filter(([key, item]) => shown(key, item));
}

function itemNode(item) {
  if (item === null || typeof item !== 'object') return h('li', { dir: 'auto', text: valueText('', item) });
  const cancelled = item.cancelled === true;
  const parts = entries(item).filter(([key]) => key !== 'cancelled' || !cancelled)
    .map(([key, v]) => (typeof v === 'object' ? null : `${fieldLabel(key)}: ${valueText(key, v)}`)).filter(Boolean);
  return h('li', { class: cancelled ? 'detail-item cancelled' : 'detail-item', dir: 'auto' },
    cancelled ? h('span', { class: 'badge badge-cancelled', testid: 'cancelled-badge', i18n: 'chat.cancelled' }) : null,
    cancelled ? ' ' : null, parts.join(' · '));
}

function valueNode(key, value) {
  if (Array.isArray(value)) {
    const items = value.filter((item) => !(typeof item === 'string' && UUID.test(item)));
    const more = items.length - MAX_ITEMS;
    return h('ul', { class: 'detail-list' }, items.slice(0, MAX_ITEMS).map(itemNode),
      more > 0 ? h('li', { class: 'muted', i18n: 'chat.andMore', vars: { n: formatNumber(more) } }) : null);
  }
  if (value && typeof value === 'object') return describe(value);
  if (typeof value === 'boolean') return h('span', { i18n: value ? 'chat.yes' : 'chat.no' });
  return h('span', { dir: 'auto', text: valueText(key, value) });
}

/** A <dl> of the object's fields a person can use; null when there is none. */
export function describe(value) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const rows = entries(value);
  if (!rows.length) return null;
  return h('dl', { class: 'detail-fields', testid: 'detail-fields' },
    rows.flatMap(([key, item]) => [hasKey(`fields.${key}`) ? h('dt', { i18n: `fields.${key}` }) : h('dt', { text: fieldLabel(key) }),
      h('dd', {}, valueNode(key, item))]));
}
