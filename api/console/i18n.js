/**
 * Console strings: the "console" key of /console/locales/{en,he,ru}.json.
 * Elements carry their key in data-i18n (text) or data-i18n-placeholder / -aria-label / -title
 * (attributes), with optional JSON data-i18n-vars, so a language switch re-translates the page.
 */
export const SUPPORTED = ['en', 'he', 'ru'];
const STORAGE_KEY = 'spotter.locale';
const ATTRS = ['placeholder', 'aria-label', 'title'];
const SELECTOR = ['[data-i18n]', ...ATTRS.map((a) => `[data-i18n-${a}]`)].join(',');

let current = 'en';
let strings = {};
let fallback = {};

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

export function initialLocale() {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (SUPPORTED.includes(stored)) return stored;
  const nav = (navigator.language || 'en').slice(0, 2).toLowerCase();
  return SUPPORTED.includes(nav) ? nav : 'en';
}

/** Load a locale (English backs up missing keys), set <html lang/dir>, re-translate the page. */
export async function setLocale(locale) {
  const next = SUPPORTED.includes(locale) ? locale : 'en';
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
  document.documentElement.dir = next === 'he' ? 'rtl' : 'ltr';
  applyStrings(document);
  document.title = `${t('app.title')} · ${t('app.subtitle')}`;
}

/** Translate `key`, replacing {name} placeholders from vars. */
export function t(key, vars, fallbackText) {
  const text = lookup(strings, key) ?? lookup(fallback, key) ?? fallbackText ?? key;
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (match, name) => (name in vars ? String(vars[name]) : match));
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

/** "$0.40" (en), "0,40 $" (ru): micros / 1e6 as US dollars in the UI language (Intl). */
export function formatUsd(micros, decimals = 2) {
  const value = Math.max(0, Number(micros) || 0) / 1e6;
  return new Intl.NumberFormat(current, { style: 'currency', currency: 'USD', minimumFractionDigits: decimals,
                                          maximumFractionDigits: decimals }).format(value);
}

export function formatNumber(n) {
  return new Intl.NumberFormat(current).format(Number(n) || 0);
}

export function formatDateTime(iso, options = { dateStyle: 'medium', timeStyle: 'short' }) {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(current, options).format(date);
}

/** A tool's human name: console.tools.<router>__<action> in the locale, else its words ("members search"). */
export function toolLabel(router, action) {
  const name = [router, action].filter(Boolean).join('__');
  const words = (action || router || '').replace(/_/g, ' ');
  return t(`tools.${name}`, undefined, words.charAt(0).toUpperCase() + words.slice(1));
}
