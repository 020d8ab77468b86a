/**
 * What the nutrition page says, in the UI language: its labels (console.nutrition.* in locales/), the
 * enum values people read (states, agents, meal slots, weekdays, adjustment and error types, ...), and
 * numbers with their units through Intl (as localize.js does for money and dates).
 */
import { currentLocale, t } from './i18n.js';

/** A nutrition label: console.nutrition.<key>, else the English fallback. */
export const tr = (key, fallback, vars) => t(`nutrition.${key}`, vars, fallback);

/** The snake_case words of an enum value, as the last resort ("active_training" → "active training"). */
export const words = (name) => String(name ?? '').replace(/_/g, ' ');

/** An enum value people read: console.nutrition.enum.<group>.<value>, else its words. */
export function enumLabel(group, value) {
  if (value === null || value === undefined || value === '') return '—';
  return t(`nutrition.enum.${group}.${value}`, undefined, words(value));
}

export const stateLabel = (state) => enumLabel('state', state);
export const agentLabel = (agent) => enumLabel('agent', agent);
export const agentList = (agents) => (agents ?? []).map(agentLabel).join(', ') || '—';

/** "→" reading forward in the page's direction. */
export const arrow = () => (document.documentElement.dir === 'rtl' ? '←' : '→');

/** A number in the UI language (Intl): at most `digits` decimals; '—' when missing. */
export function num(value, digits = 0) {
  if (typeof value !== 'number' || Number.isNaN(value)) return value === null || value === undefined ? '—' : String(value);
  return new Intl.NumberFormat(currentLocale(), { maximumFractionDigits: digits }).format(value);
}

// Units Intl knows by name; kcal and g/kg are not among them, so the locale files spell those.
const INTL_UNITS = { g: 'gram', kg: 'kilogram', lb: 'pound', L: 'liter', '%': 'percent', s: 'second', min: 'minute', cm: 'centimeter' };

/** A number with its unit in the UI language: "2,180 kcal", "2.5 L", "2,5 л", "101 ג׳". */
export function qty(value, unit, digits = 0) {
  if (typeof value !== 'number' || Number.isNaN(value)) return '—';
  const intl = INTL_UNITS[unit];
  if (intl) {
    try {
      return new Intl.NumberFormat(currentLocale(), { style: 'unit', unit: intl, unitDisplay: 'short',
        maximumFractionDigits: digits }).format(value);
    } catch {
      // an engine without unit formatting falls through to the spelled unit
    }
  }
  return tr(`unit.${unit === 'g/kg' ? 'gPerKg' : unit}`, `{n} ${unit}`, { n: num(value, digits) });
}

/** A signed amount: "+200 kcal", "−150 kcal". */
export function signedQty(value, unit, digits = 0) {
  if (typeof value !== 'number') return '—';
  return `${value > 0 ? '+' : value < 0 ? '−' : ''}${qty(Math.abs(value), unit, digits)}`;
}

const FIELD_GROUPS = ['intake', 'field'];

/** A request field people filled in ("waist_cm" → "Waist (cm)"), else its words. */
export function fieldLabel(field) {
  const name = String(field ?? '').split('.').filter((part) => !/^\d+$/.test(part)).at(-1) ?? '';
  for (const group of FIELD_GROUPS) {
    const text = t(`nutrition.${group}.${name}`, undefined, '');
    if (text) return text;
  }
  return words(field);
}

/** A per-field error code in words ("required_biweekly" → "needed every two weeks"). */
export const fieldErrorLabel = (code) => t(`nutrition.fieldError.${code}`, undefined, tr('fieldError.invalid', 'not valid'));

/** A calendar day ("2026-11-26") in the UI language, as it is written (no time zone shift). */
export function formatDay(iso) {
  const [year, month, day] = String(iso).split('-').map(Number);
  if (!year || !month || !day) return String(iso ?? '');
  return new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'medium', timeZone: 'UTC' })
    .format(new Date(Date.UTC(year, month - 1, day)));
}

const capitalize = (text) => (text ? text.charAt(0).toLocaleUpperCase(currentLocale()) + text.slice(1) : text);

/** A list in the UI language's words ("rice, chicken and vegetables"). */
export function listOf(items) {
  try {
    return new Intl.ListFormat(currentLocale(), { type: 'conjunction' }).format(items);
  } catch {
    return items.join(', ');
  }
}

/** A food of the library by its key (console.nutrition.food.<key>, spaces or underscores), or null. */
export function foodName(key) {
  const name = String(key ?? '');
  return t(`nutrition.food.${name}`, undefined, '') || t(`nutrition.food.${name.replace(/[\s-]+/g, '_')}`, undefined, '') || null;
}

/** A food people read: its name in the UI language, else the key's words. */
export const foodLabel = (key) => foodName(key) ?? capitalize(words(key));

/**
 * A recipe's name in the UI language: console.nutrition.recipe.<template> (its id without the "-2" of a variant),
 * else its foods listed in the UI language ("Chicken breast, rice and vegetables"), else the name the CHEF gave
 * (`lang` then says which language that is, so it is read as English).
 */
export function recipeName(recipe) {
  const base = String(recipe?.recipe_id ?? '').replace(/-\d+$/, '');
  const named = base ? t(`nutrition.recipe.${base}`, undefined, '') : '';
  if (named) return { text: named, lang: null };
  const foods = (recipe?.ingredients ?? []).map((item) => foodName(item.item));
  if (currentLocale() !== 'en' && foods.length && foods.every(Boolean)) return { text: capitalize(listOf(foods)), lang: null };
  return { text: recipe?.recipe_name ?? '—', lang: 'en' };
}

/** An exercise's name in the UI language (console.nutrition.exercise.<name>), else as the COACH wrote it. */
export const exerciseName = (name) => t(`nutrition.exercise.${name}`, undefined, '') || String(name ?? '');

// The exercise library's muscles (gym/exercise_library.py MUSCLES) the console already names (console.member.muscle.*).
const MEMBER_MUSCLES = { chest: 'Chest', shoulders: 'Shoulders', biceps: 'Biceps', triceps: 'Triceps', forearms: 'Forearms',
  'lower back': 'Lower Back', glutes: 'Glutes', quads: 'Quadriceps', hamstrings: 'Hamstrings', calves: 'Calves',
  adductors: 'Adductors' };

/** A muscle in the UI language: the member app's name when it has one, else console.nutrition.enum.muscle.<name>. */
export function muscleLabel(name) {
  const key = String(name ?? '').toLowerCase();
  if (MEMBER_MUSCLES[key]) return t(`member.muscle.${MEMBER_MUSCLES[key]}`, undefined, capitalize(key));
  return capitalize(enumLabel('muscle', key.replace(/\s+/g, '_')));
}

/** A grocery aisle people read: console.nutrition.aisle.<key>, else the key's words. */
export const aisleLabel = (key) => t(`nutrition.aisle.${key}`, undefined, '') || capitalize(words(key));
