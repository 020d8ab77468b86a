/**
 * The member's own classes in the app (GET …/trainer/bookings), under the calendar: what is coming (and whether a
 * class was cancelled), the waitlists they are on with their place in line, and the latest past classes with
 * whether they came. Days and times are the gym's.
 */
import { h } from './dom.js';
import { t } from './i18n.js';
import { showError } from './notices.js';
import { trainerApp } from './member-api.js';
import { dayLabel } from './member-format.js';
import { num } from './member-cards.js';

const panel = { el: null, token: 0 };

function when(row) {
  return `${dayLabel(row.date)} ${row.start}${row.end ? `–${row.end}` : ''}`;
}

function item(row, words, kind) {
  return h('li', { class: `booking booking-${kind}`, testid: 'member-booking', 'data-status': kind, dir: 'auto' },
    h('span', { class: 'booking-when', text: when(row) }), ' ',
    h('span', { class: 'booking-title', text: row.title }), ' — ',
    h('span', { class: 'booking-status', text: words }));
}

function list(rows, testid, empty) {
  return rows.length ? h('ul', { class: 'booking-list', testid }, rows)
    : h('p', { class: 'muted', testid: `${testid}-empty`, i18n: empty });
}

function render(data) {
  if (!panel.el) return;
  const coming = data.upcoming.map((b) => (b.sessionCancelled
    ? item(b, t('train.bookings.classCancelled'), 'cancelled')
    : item(b, t(`train.bookings.status.${b.status}`), b.status)));
  const waiting = data.waitlist.map((w) => item(w, t('train.bookings.waiting', { n: num(w.position) }), 'waiting'));
  const past = data.past.map((b) => item(b, t(`train.bookings.status.${b.status}`), b.status));
  panel.el.replaceChildren(
    h('h3', { i18n: 'train.bookings.title' }),
    list([...coming, ...waiting], 'bookings-upcoming', 'train.bookings.none'),
    past.length ? h('h4', { class: 'muted', i18n: 'train.bookings.past' }) : null,
    past.length ? list(past, 'bookings-past', 'train.bookings.none') : null);
}

async function load() {
  panel.token += 1;
  const token = panel.token;
  try {
    const data = await trainerApp.bookings();
    if (token === panel.token) render(data);
  } catch (err) {
    showError(err);
  }
}

/** The panel (one element kept across the calendar's redraws), loaded once per mount. */
export function bookingsPanel() {
  if (!panel.el) {
    panel.el = h('section', { class: 'panel member-bookings', testid: 'member-bookings' },
      h('p', { class: 'muted', i18n: 'chat.loading' }));
    load();
  }
  return panel.el;
}

export function resetBookings() {
  panel.el = null;
  panel.token += 1;
}
