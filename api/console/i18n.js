/**
 * Console strings: the "console" key of /console/locales/{en,he,ru}.json, for the languages listed once in
 * /console/locales/languages.json (the server reads the same file).
 * Elements carry their key in data-i18n (text) or data-i18n-placeholder / -aria-label / -title
 * (attributes), with optional JSON data-i18n-vars, so a language switch re-translates the page.
 * Messages are ICU: {name}, {n, plural, one {# member} other {# members}} (Intl.PluralRules) and
 * {kind, select, a {…} other {…}}. Dates and times are shown in one format per language, in the gym's time zone.
 */
export const SUPPORTED = [];
const STORAGE_KEY = 'spotter.locale';
const ATTRS = ['placeholder', 'aria-label', 'title'];
const SELECTOR = ['[data-i18n]', ...ATTRS.map((a) => `[data-i18n-${a}]`)].join(',');

let current = 'en';
let strings = {};
let fallback = {};
let registry = null;
let timeZone;

/** The language registry: [{code, name, english, dir}] (loaded once). */
export async function loadLanguages() {
  if (registry) return registry;
  try {
    const response = await fetch('locales/languages.json', { cache: 'no-cache' });
    registry = await response.json();
  } catch (err) {
    console.warn('spotter: language registry unavailable', err);
    registry = { default: 'en', languages: [{ code: 'en', name: 'English', dir: 'ltr' }] };
  }
  SUPPORTED.splice(0, SUPPORTED.length, ...registry.languages.map((l) => l.code));
  return registry;
}

export function languages() {
  return registry?.languages ?? [];
}

/** Fill a <select> with the registry's languages (each named in its own language). */
export function fillLanguageSelect(select) {
  if (!select) return;
  select.replaceChildren(
    ...languages().map((l) => {
      const option = document.createElement('option');
      option.value = l.code;
      option.lang = l.code;
      option.dir = l.dir;
      option.textContent = l.name;
      return option;
    }),
  );
  select.value = current;
}

async function fetchStrings(locale) {
  // Relative to <base href="/console/">: /console/locales/<locale>.json
  const response = await fetch(`locales/${locale}.json`, { cache: 'no-cache' });
  if (!response.ok) throw new Error(`locale ${locale}: HTTP ${response.status}`);
  const data = await response.json();
  return data.console ?? {};
}

function lookup(tree, key) {
  let node = tree;
  for (const part of key.split('.')) {
    if (node == null || typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function currentLocale() {
  return current;
}

/** The day a week starts on in `locale`, as Intl's weekInfo says it: 1 Monday … 7 Sunday (languages.json). */
export function firstDayOfWeek(locale = current) {
  return languages().find((l) => l.code === locale)?.firstDay ?? 1;
}

export function isRtl(locale = current) {
  return languages().find((l) => l.code === locale)?.dir === 'rtl';
}

export function initialLocale() {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored && (!SUPPORTED.length || SUPPORTED.includes(stored))) return stored;
  const nav = (navigator.language || 'en').slice(0, 2).toLowerCase();
  return !SUPPORTED.length || SUPPORTED.includes(nav) ? nav : 'en';
}

/** Load a locale (English backs up missing keys), set <html lang/dir>, re-translate the page. */
export async function setLocale(locale) {
  await loadLanguages();
  const next = SUPPORTED.includes(locale) ? locale : registry.default ?? 'en';
  if (!Object.keys(fallback).length) {
    try {
      fallback = await fetchStrings('en');
    } catch (err) {
      console.warn(err);
    }
  }
  try {
    strings = next === 'en' ? fallback : await fetchStrings(next);
  } catch (err) {
    console.warn(err);
    strings = fallback;
  }
  current = next;
  localStorage.setItem(STORAGE_KEY, next);
  document.documentElement.lang = next;
  document.documentElement.dir = isRtl(next) ? 'rtl' : 'ltr';
  applyStrings(document);
  document.title = `${t('app.title')} · ${t('app.subtitle')}`;
}

// ---- ICU messages ----------------------------------------------------------------------------

function closing(text, start) {
  let depth = 0;
  for (let i = start; i < text.length; i += 1) {
    if (text[i] === '{') depth += 1;
    else if (text[i] === '}') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function cases(body) {
  const out = {};
  let i = 0;
  while (i < body.length) {
    const brace = body.indexOf('{', i);
    if (brace === -1) break;
    const key = body.slice(i, brace).trim();
    const end = closing(body, brace);
    if (end === -1 || !key) break;
    out[key] = body.slice(brace + 1, end);
    i = end + 1;
  }
  return out;
}

function argument(spec, vars, number) {
  const comma = spec.indexOf(',');
  const name = (comma === -1 ? spec : spec.slice(0, comma)).trim();
  if (comma === -1) return name in vars ? String(vars[name]) : null;
  const rest = spec.slice(comma + 1);
  const second = rest.indexOf(',');
  const kind = (second === -1 ? rest : rest.slice(0, second)).trim();
  const options = cases(second === -1 ? '' : rest.slice(second + 1));
  const value = vars[name];
  if (kind === 'plural' && value !== undefined && value !== null) {
    const n = Number(value) || 0;
    const text = options[`=${n}`] ?? options[new Intl.PluralRules(current).select(n)] ?? options.other ?? '';
    return formatMessage(text, vars, formatNumber(n));
  }
  if (kind === 'select') return formatMessage(options[String(value)] ?? options.other ?? '', vars, number);
  return null;
}

/** An ICU message with vars; an unknown placeholder stays as written. */
export function formatMessage(template, vars = {}, number = null) {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const c = template[i];
    if (c === '{') {
      const end = closing(template, i);
      if (end === -1) return out + template.slice(i);
      const value = argument(template.slice(i + 1, end), vars, number);
      out += value === null ? template.slice(i, end + 1) : value;
      i = end + 1;
      continue;
    }
    out += c === '#' && number !== null ? number : c;
    i += 1;
  }
  return out;
}

/** Translate `key`, formatting its ICU message with vars. */
export function t(key, vars, fallbackText) {
  const text = lookup(strings, key) ?? lookup(fallback, key) ?? fallbackText ?? key;
  return vars || text.includes('{') ? formatMessage(text, vars ?? {}) : text;
}

export function hasKey(key) {
  return lookup(strings, key) !== undefined || lookup(fallback, key) !== undefined;
}

export function translateNode(node) {
  const ds = node.dataset;
  if (!ds) return;
  let vars;
  if (ds.i18nVars) {
    try {
      vars = JSON.parse(ds.i18nVars);
    } catch {
      vars = undefined;
    }
  }
  if (ds.i18n) node.textContent = t(ds.i18n, vars, ds.i18nFallback);
  for (const attr of ATTRS) {
    const key = node.getAttribute(`data-i18n-${attr}`);
    if (key) node.setAttribute(attr, t(key, vars));
  }
}

export function applyStrings(root) {
  if (root.nodeType === Node.ELEMENT_NODE && root.matches(SELECTOR)) translateNode(root);
  root.querySelectorAll(SELECTOR).forEach(translateNode);
}

// ---- numbers, money, dates -------------------------------------------------------------------

/** "$0.40" (en), "0,40 $" (ru): micros / 1e6 as US dollars in the UI language (Intl). */
export function formatUsd(micros, decimals = 2) {
  const value = Math.max(0, Number(micros) || 0) / 1e6;
  return new Intl.NumberFormat(current, { style: 'currency', currency: 'USD', minimumFractionDigits: decimals,
                                          maximumFractionDigits: decimals }).format(value);
}

export function formatNumber(n) {
  return new Intl.NumberFormat(current).format(Number(n) || 0);
}

/** A weight with its unit in the UI language: "65.5 kg", "65,5 кг". */
export function formatWeight(value, unit = 'kg') {
  const unitName = unit === 'lbs' || unit === 'lb' ? 'pound' : 'kilogram';
  return new Intl.NumberFormat(current, { style: 'unit', unit: unitName, maximumFractionDigits: 1 }).format(Number(value) || 0);
}

/** The gym's IANA time zone: every date and time the console shows is in it (GET /organizations/{id}/me). */
export function setTimeZone(zone) {
  timeZone = zone || undefined;
}

export function gymTimeZone() {
  return timeZone;
}

/** The one date, time and date-time format per language (24-hour clock, medium dates). */
export const DATE = { dateStyle: 'medium' };
export const TIME = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
export const DATE_TIME = { year: 'numeric', month: 'short', day: 'numeric', ...TIME };

export function formatDateTime(iso, options = DATE_TIME, zone = timeZone) {
  const date = iso instanceof Date ? iso : iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return '';
  try {
    return new Intl.DateTimeFormat(current, { ...options, timeZone: zone }).format(date);
  } catch {
    return new Intl.DateTimeFormat(current, options).format(date);
  }
}

export const formatDate = (iso, zone = timeZone) => formatDateTime(iso, DATE, zone);
export const formatTime = (iso, zone = timeZone) => formatDateTime(iso, TIME, zone);

/** The calendar day of `iso` in the gym's time zone, as YYYY-MM-DD (to group by day). */
export function gymDay(iso, zone = timeZone) {
  const date = iso instanceof Date ? iso : new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: zone }).format(date);
}

/** A tool's human name: console.tools.<router>__<action> in the locale, else its words ("members search"). */
export function toolLabel(router, action) {
  const name = [router, action].filter(Boolean).join('__');
  const words = (action || router || '').replace(/_/g, ' ');
  return t(`tools.${name}`, undefined, words.charAt(0).toUpperCase() + words.slice(1));
}
