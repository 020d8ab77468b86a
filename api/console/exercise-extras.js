/**
 * What Today offers around one exercise: the member's own note on it (kept per exercise, shown the next time), its
 * detail (the sessions logged, the best sets, the estimated 1RM over time; from GET …/trainer/progress/exercise)
 * and, for a barbell, the plate calculator (bar and plates per side for a load, in the member's unit, from the gym's
 * own plates: GET …/trainer/plates).
 */
import { h } from './dom.js';
import { t } from './i18n.js';
import { showError } from './notices.js';
import { trainerApp } from './member-api.js';
import { loadText, num } from './member-cards.js';
import { announce, dayLabel } from './member-format.js';
import { lineChart } from './charts.js';

// ---- the note ---------------------------------------------------------------------------------------------------

/** The member's note on `ex`, saved when they leave the field. */
export function noteField(ex) {
  const field = h('textarea', {
    class: 'ex-note', testid: 'exercise-note', rows: '1', maxlength: '1000', dir: 'auto',
    placeholder: t('train.note.placeholder'), 'aria-label': t('train.note.label', { name: ex.displayName }),
    onchange: async (event) => {
      const text = event.target.value;
      try {
        const saved = await trainerApp.saveNote(ex.name, text);
        ex.note = saved.note;
        field.dataset.saved = 'true';
        announce(t(saved.note ? 'train.note.saved' : 'train.note.cleared'));
      } catch (err) {
        showError(err);
      }
    },
  });
  field.value = ex.note ?? '';
  return field;
}

// ---- a dialog ---------------------------------------------------------------------------------------------------

function dialog(testid, title, body) {
  const box = h('dialog', { class: `modal ${testid}`, testid, 'aria-labelledby': `${testid}-title` },
    h('h2', { id: `${testid}-title`, dir: 'auto', text: title }), body,
    h('div', { class: 'modal-actions' },
      h('button', { type: 'button', class: 'btn primary', testid: `${testid}-close`, i18n: 'train.close',
                    onclick: () => box.close() })));
  box.addEventListener('close', () => box.remove());
  document.body.append(box);
  box.showModal();
  return box;
}

// ---- the exercise's detail --------------------------------------------------------------------------------------

/** An exercise's top set and estimated 1RM per session over time (GET …/progress/exercise's points), as lines. */
export function loadOverTime(data, testid, caption) {
  const { points } = data;
  const first = new Date(points[0].performedAt).getTime();
  const last = new Date(points.at(-1).performedAt).getTime();
  const x = (p) => (last > first ? (new Date(p.performedAt).getTime() - first) / (last - first) : 0.5);
  const short = (iso) => dayLabel(iso, { day: 'numeric', month: 'short' });
  const line = (key, className, value) => ({ name: t(key), className,
                                             points: points.map((p) => ({ x: x(p), y: value(p), label: short(p.date) })) });
  return lineChart({ testid, caption,
    series: [line('train.chart.topSet', 'top', (p) => p.topLoad), line('train.chart.e1rm', 'e1rm', (p) => p.e1rm)],
    xLabels: [{ x: 0, label: short(points[0].date) }, { x: 1, label: short(points.at(-1).date) }],
    format: (v) => loadText(v, data.unit) });
}

function detailBody(data) {
  const unit = data.unit;
  if (!data.points.length) return h('p', { class: 'muted', testid: 'detail-empty', i18n: 'train.detail.empty' });
  const points = data.points;
  const chart = loadOverTime(data, 'detail-e1rm', t('train.detail.chart', { name: data.displayName ?? '' }));
  const best = (key, value, at) => h('div', {}, h('dt', { i18n: key }),
    h('dd', { testid: key.replace('train.detail.', 'detail-'), dir: 'auto' }, h('bdi', { dir: 'ltr', text: loadText(value, unit) }),
      at ? ` · ${dayLabel(at.slice(0, 10))}` : ''));
  return h('div', { class: 'detail-body' },
    h('dl', { class: 'summary-stats' }, best('train.detail.heaviest', data.bests.heaviestLoad, data.bests.heaviestAt),
      best('train.detail.best1rm', data.bests.e1rm, data.bests.e1rmAt)),
    chart,
    h('h3', { i18n: 'train.detail.sessions' }),
    h('ol', { class: 'detail-sessions', testid: 'detail-sessions' }, [...points].reverse().map((p) => h('li', {
      testid: 'detail-session', 'data-date': p.date },
    h('span', { text: dayLabel(p.date) }), ' ',
    h('bdi', { dir: 'ltr', text: `${loadText(p.topLoad, unit)} × ${num(p.topReps)}` }),
    p.e1rm ? h('span', { class: 'muted', text: ` · ${t('train.detail.e1rmOf', { load: loadText(p.e1rm, unit) })}` }) : null))),
    h('p', { class: 'muted chart-note', text: t('train.chart.epleyNote') }));
}

/** The exercise's detail: its sessions, best sets and estimated 1RM chart. */
export async function openDetail(ex) {
  let data;
  try {
    data = await trainerApp.exercise(ex.name, 365);
  } catch (err) {
    if (err?.code !== 'exercise_not_logged') {
      showError(err);
      return;
    }
    data = { points: [], unit: 'kg' };
  }
  dialog('detail-dialog', ex.displayName || ex.name, detailBody(data));
}

// ---- plates -----------------------------------------------------------------------------------------------------

async function platesAnswer(out, load) {
  const asked = String(Math.max(0, Math.min(1000, Number(load) || 0)));
  out.dataset.asked = asked;
  let answer;
  try {
    answer = await trainerApp.plates(asked);
  } catch (err) {
    showError(err);
    return;
  }
  if (out.dataset.asked !== asked) return;  // a later number was typed meanwhile
  const unit = answer.unit;
  if (answer.belowBar) {
    out.replaceChildren(h('p', { testid: 'plates-below-bar', text: t('train.plates.belowBar', { bar: loadText(answer.bar, unit) }) }));
    return;
  }
  out.replaceChildren(
    h('p', { testid: 'plates-bar', text: t('train.plates.bar', { bar: loadText(answer.bar, unit) }) }),
    h('p', { testid: 'plates-side', 'data-plates': answer.perSide.join(' '), dir: 'auto' },
      t('train.plates.perSide'), ' ',
      h('bdi', { dir: 'ltr', text: answer.perSide.length ? answer.perSide.map(num).join(' + ') : t('train.plates.none') })),
    answer.exact ? null : h('p', { class: 'muted', testid: 'plates-off', text: t('train.plates.closest', { load: loadText(answer.total, unit) }) }));
}

/** The plate calculator for `ex` at `load` (the set about to be lifted, in the member's unit). */
export function openPlates(ex, load) {
  const out = h('div', { class: 'plates-out', role: 'status' });
  const input = h('input', { type: 'number', class: 'set-input', testid: 'plates-load', step: '0.5', min: '0', max: '1000',
                             inputmode: 'decimal', dir: 'ltr', value: load ? String(load) : '',
                             oninput: (event) => platesAnswer(out, event.target.value) });
  dialog('plates-dialog', t('train.plates.title', { name: ex.displayName || ex.name }),
    h('div', { class: 'plates-body' }, h('label', { class: 'set-field' }, h('span', { i18n: 'train.plates.target' }), input), out));
  platesAnswer(out, load);
}
