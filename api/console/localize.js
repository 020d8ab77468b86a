/**
 * One money and date format per locale in what people read: amounts the server or the model wrote
 * ("₪69,580.00", "420.00 ILS", "$5.00") and ISO dates and timestamps ("2026-11-23T21:12+02:00") in reply
 * text are rewritten with the browser's Intl (NumberFormat currency, DateTimeFormat) in the UI language.
 * A timestamp keeps the wall-clock time it states (the gym's local time), not the browser's.
 */
import { currentLocale, formatDateTime, DATE, DATE_TIME } from './i18n.js';

const SYMBOL_CODES = { '₪': 'ILS', $: 'USD', '€': 'EUR', '£': 'GBP' };
const AMOUNT = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?`;
const PATTERN = new RegExp(
  [
    String.raw`(?<iso>\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b)`,
    String.raw`(?<sneg>-)?(?<sym>[₪$€£])(?<samt>${AMOUNT})`,
    String.raw`(?<cneg>-)?\b(?<camt>${AMOUNT}) (?<code>[A-Z]{3})\b`,
  ].join('|'),
  'g',
);

export function formatMoney(amount, currency) {
  try {
    return new Intl.NumberFormat(currentLocale(), { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

function formatIso(iso) {
  const m = iso.match(/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/);
  const [year, month, day, hour, minute] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v)));
  if (month < 1 || month > 12 || day < 1 || day > 31) return iso;
  const wall = new Date(Date.UTC(year, month - 1, day, hour ?? 0, minute ?? 0));
  return formatDateTime(wall, hour === undefined ? DATE : DATE_TIME, 'UTC');
}

/** The text with its amounts and ISO dates in the UI language's one format. */
export function localizeText(text) {
  if (!text) return text;
  return text.replace(PATTERN, (match, ...args) => {
    const g = args[args.length - 1];
    if (g.iso) return formatIso(g.iso);
    if (g.sym) return formatMoney((g.sneg ? -1 : 1) * Number(g.samt.replace(/,/g, '')), SYMBOL_CODES[g.sym]);
    if (g.code && Intl.supportedValuesOf?.('currency')?.includes(g.code)) {
      return formatMoney((g.cneg ? -1 : 1) * Number(g.camt.replace(/,/g, '')), g.code);
    }
    return match;
  });
}
