/**
 * Today's parts that hold no state of their own: the set row's number and RPE inputs, the empty screen that asks
 * the trainer for a workout, and the summary a finished workout leaves (today.js puts them together).
 */
import { h } from './dom.js';
import { t } from './i18n.js';
import { loadText, num } from './member-cards.js';
import { clock, recordText } from './member-format.js';

const RPE_VALUES = [6, 6.5, 7, 7.5, 8, 8.5, 9, 9.5, 10];

export function numberInput({ testid, value, label, step = '1', min = '0', max, inputmode = 'numeric', disabled, onchange }) {
  return h('input', {
    type: 'number', class: 'set-input', testid, value: value === null || value === undefined ? '' : String(value),
    step, min, max, inputmode, 'aria-label': label, disabled: disabled || null, dir: 'ltr',
    oninput: (event) => onchange(event.target.value === '' ? null : Number(event.target.value)),
  });
}

export function rpeSelect(value, label, disabled, onchange) {
  const select = h('select', { class: 'set-rpe', testid: 'set-rpe', 'aria-label': label, disabled: disabled || null,
                               onchange: (event) => onchange(event.target.value ? Number(event.target.value) : null) },
  h('option', { value: '', text: t('train.set.rpeNone') }),
  RPE_VALUES.map((v) => h('option', { value: String(v), text: num(v) })));
  select.value = value === null || value === undefined ? '' : String(value);
  return select;
}

export function emptyToday(askWorkout) {
  return h('div', { class: 'empty-state today-empty', testid: 'today-empty' },
    h('div', { class: 'empty-mark', 'aria-hidden': 'true', text: '✓' }),
    h('h2', { i18n: 'train.noWorkoutTitle' }),
    h('p', { class: 'muted', i18n: 'train.noWorkoutBody' }),
    h('div', { class: 'btn-row' },
      h('button', { type: 'button', class: 'btn primary', testid: 'ask-workout', i18n: 'train.askWorkout', onclick: askWorkout }),
      h('a', { class: 'btn', href: '#view=trainer', testid: 'open-trainer', i18n: 'train.openTrainer' })));
}

export function summaryCard(summary, onClose) {
  const u = summary.unit;
  return h('section', { class: 'finish-summary', testid: 'finish-summary', role: 'status' },
    h('h2', { tabindex: '-1', i18n: summary.status === 'completed' ? 'train.finished' : 'train.discarded' }),
    h('dl', { class: 'summary-stats' },
      h('div', {}, h('dt', { i18n: 'train.stat.time' }), h('dd', { testid: 'summary-time', text: clock(summary.durationMin * 60) })),
      h('div', {}, h('dt', { i18n: 'train.stat.sets' }), h('dd', { testid: 'summary-sets', text: num(summary.setsDone) })),
      h('div', {}, h('dt', { i18n: 'train.stat.volume' }), h('dd', { testid: 'summary-volume', text: loadText(summary.volume, u) }))),
    summary.records.length ? h('ul', { class: 'summary-records', testid: 'summary-records' },
      summary.records.map((r) => h('li', { dir: 'auto' }, h('span', { class: 'pr-badge', 'data-kind': r.kind, text: t('train.pr.short') }),
        ` ${r.exercise}: ${recordText(r, u)}`))) : null,
    h('div', { class: 'btn-row' },
      h('a', { class: 'btn primary', href: '#view=progress', testid: 'see-progress', i18n: 'train.seeProgress' }),
      h('button', { type: 'button', class: 'btn', i18n: 'train.close', onclick: onClose })));
}
