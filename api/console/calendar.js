/**
 * Calendar: a month of the gym's days (GET …/trainer/calendar) with the workouts done and those scheduled (the
 * member's own and the coach's), today marked, the streak of weeks with a workout, and a day's detail. Weeks
 * start on the language's first day (Sunday in Hebrew, Monday in English and Russian); the grid mirrors in Hebrew. Arrow keys move between days. Below it, the member's own classes
 * (member-bookings.js).
 */
import { h } from './dom.js';
import { t, currentLocale, firstDayOfWeek } from './i18n.js';
import { showError } from './notices.js';
import { trainerApp } from './member-api.js';
import { num } from './member-cards.js';
import { dayLabel } from './member-format.js';
import { bookingsPanel, resetBookings } from './member-bookings.js';

const view = { root: null, month: null, selected: null, data: null, token: 0 };

const iso = (d) => d.toISOString().slice(0, 10);
const utc = (s) => { const [y, m, d] = s.split('-').map(Number); return new Date(Date.UTC(y, m - 1, d)); };

function monthBounds(first) {
  const end = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
  return [iso(first), iso(end)];
}

function shift(months) {
  const m = view.month;
  view.month = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + months, 1));
  view.selected = null;
  load();
}

/** The grid's first column as Date.getUTCDay() counts: 0 Sunday, 1 Monday. */
const weekStart = () => firstDayOfWeek() % 7;

function weekdayNames() {
  const first = new Date(Date.UTC(2024, 0, 7 + weekStart()));  // 7 January 2024 was a Sunday
  return Array.from({ length: 7 }, (_, i) => new Intl.DateTimeFormat(currentLocale(), { weekday: 'short', timeZone: 'UTC' })
    .format(new Date(first.getTime() + i * 86400000)));
}

/** "Ноябрь 2026 г.": the month's title with its first letter up (CSS capitalize raised every word's: "2026 Г."). */
function monthTitle(first) {
  const words = new Intl.DateTimeFormat(currentLocale(), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(first);
  return words.charAt(0).toLocaleUpperCase(currentLocale()) + words.slice(1);
}

function dayCell(day, today) {
  const date = utc(day.date);
  const done = Boolean(day.done);
  const planned = day.scheduled.filter((s) => s.status === 'scheduled').length;
  const label = [dayLabel(day.date),
    done ? t('train.calendar.doneA11y', { n: num(day.done.exercises) }) : null,
    planned ? t('train.calendar.plannedA11y', { n: num(planned) }) : null].filter(Boolean).join(', ');
  return h('button', {
    type: 'button', class: `cal-day${done ? ' done' : ''}${planned ? ' planned' : ''}${day.date === today ? ' today' : ''}${view.selected === day.date ? ' selected' : ''}`,
    testid: 'calendar-day', 'data-date': day.date, 'data-done': String(done), 'data-planned': String(planned),
    'aria-label': label, 'aria-pressed': String(view.selected === day.date), 'aria-current': day.date === today ? 'date' : null,
    tabindex: (view.selected ?? today) === day.date ? '0' : '-1',
    onclick: () => { view.selected = day.date; draw(); view.root?.querySelector(`[data-date="${day.date}"]`)?.focus(); },
    onkeydown: (event) => move(event, day.date),
  },
  h('span', { class: 'cal-num', text: num(date.getUTCDate()) }),
  h('span', { class: 'cal-marks', 'aria-hidden': 'true' }, done ? h('span', { class: 'mark done' }) : null,
    planned ? h('span', { class: 'mark planned' }) : null));
}

function move(event, date) {
  const rtl = document.documentElement.dir === 'rtl';
  const steps = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1, ArrowDown: 7, ArrowUp: -7 };
  if (!(event.key in steps)) return;
  event.preventDefault();
  const next = iso(new Date(utc(date).getTime() + steps[event.key] * 86400000));
  const cell = view.root?.querySelector(`[data-testid="calendar-day"][data-date="${next}"]`);
  if (cell) {
    view.selected = next;
    draw();
    view.root?.querySelector(`[data-date="${next}"]`)?.focus();
  }
}

function detail(day) {
  if (!day) return null;
  const items = [];
  if (day.done) {
    items.push(h('li', { class: 'cal-item done', testid: 'calendar-done', dir: 'auto',
      text: `${t('train.calendar.done')}: ${[...day.done.titles, t('train.history.exercises', { n: num(day.done.exercises) })].join(' · ')}` }));
  }
  for (const s of day.scheduled) {
    const time = s.at ? new Intl.DateTimeFormat(currentLocale(), { timeStyle: 'short' }).format(new Date(s.at)) : '';
    items.push(h('li', { class: `cal-item planned status-${s.status}`, testid: 'calendar-scheduled', dir: 'auto',
      text: [time, s.workoutType, s.durationMinutes ? t('member.min', { n: num(s.durationMinutes) }) : null,
        s.source === 'coach' ? t('train.calendar.coach') : null,
        s.status !== 'scheduled' ? t(`train.calendar.status.${s.status}`, undefined, s.status) : null].filter(Boolean).join(' · ') }));
  }
  return h('section', { class: 'cal-detail panel', testid: 'calendar-detail', 'aria-live': 'polite' },
    h('h3', { text: dayLabel(day.date) }),
    items.length ? h('ul', { class: 'cal-items' }, items) : h('p', { class: 'muted', i18n: 'train.calendar.nothing' }));
}

function draw() {
  if (!view.root) return;
  const data = view.data;
  if (!data) {
    view.root.replaceChildren(h('p', { class: 'muted', i18n: 'chat.loading' }));
    return;
  }
  const first = utc(data.start);
  const lead = (first.getUTCDay() - weekStart() + 7) % 7;
  const title = monthTitle(first);
  const streak = data.streak;
  view.root.replaceChildren(h('div', { class: 'calendar', testid: 'calendar' },
    h('h2', { class: 'view-title', i18n: 'train.nav.calendar' }),
    h('section', { class: 'streak panel', testid: 'streak', 'data-weeks': String(streak.weeks) },
      h('span', { class: 'streak-number', text: num(streak.weeks) }),
      h('span', { class: 'streak-words', text: t('train.calendar.streak', { n: num(streak.weeks) }) }),
      h('span', { class: 'muted streak-week', testid: 'streak-week', text: streak.target
        ? t('train.calendar.thisWeekOf', { n: num(streak.thisWeek), target: num(streak.target) })
        : t('train.calendar.thisWeek', { n: num(streak.thisWeek) }) })),
    h('div', { class: 'cal-nav' },
      h('button', { type: 'button', class: 'btn ghost small', testid: 'calendar-prev', 'aria-label': t('train.calendar.prev'),
                    text: document.documentElement.dir === 'rtl' ? '›' : '‹', onclick: () => shift(-1) }),
      h('h3', { class: 'cal-title', testid: 'calendar-title', text: title }),
      h('button', { type: 'button', class: 'btn ghost small', testid: 'calendar-next', 'aria-label': t('train.calendar.next'),
                    text: document.documentElement.dir === 'rtl' ? '‹' : '›', onclick: () => shift(1) })),
    h('div', { class: 'cal-grid', role: 'group', 'aria-label': title },
      weekdayNames().map((name) => h('span', { class: 'cal-weekday', 'aria-hidden': 'true', text: name })),
      Array.from({ length: lead }, () => h('span', { class: 'cal-blank', 'aria-hidden': 'true' })),
      data.days.map((d) => dayCell(d, data.today))),
    h('p', { class: 'cal-legend muted' }, h('span', { class: 'mark done' }), h('span', { i18n: 'train.calendar.legendDone' }),
      h('span', { class: 'mark planned' }), h('span', { i18n: 'train.calendar.legendPlanned' })),
    detail(data.days.find((d) => d.date === (view.selected ?? data.today)))), bookingsPanel());
}

async function load() {
  view.token += 1;
  const token = view.token;
  const [start, end] = view.month ? monthBounds(view.month) : [];
  try {
    const data = await trainerApp.calendar(start, end);  // none: the gym's current month
    if (token !== view.token) return;
    view.data = data;
    view.month = utc(data.start);
  } catch (err) {
    showError(err);
  }
  draw();
}

export function mountCalendar(root) {
  view.root = root;
  view.data = null;
  draw();
  load();
}

export function unmountCalendar() {
  view.root = null;
  view.token += 1;
  resetBookings();
}

export function refreshCalendar() {
  if (!view.root) return;
  resetBookings();
  load();
}
