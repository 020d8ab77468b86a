/**
 * The member's side of the console as a training app: Today (log the workout), Food (the food log and weight
 * trend, food.js), Progress (history, charts, recovery), Calendar (done and scheduled, the streak) and Trainer (the
 * chat, member.js). A tab bar at the bottom
 * on a phone, at the top on a desktop; the view lives in the address (#view=today), so reload and Back work.
 */
import { h } from './dom.js';
import { t } from './i18n.js';
import { enterMemberMode, leaveMemberMode } from './member.js';
import { mountToday, unmountToday, refreshToday } from './today.js';
import { mountProgress, unmountProgress, refreshProgress } from './progress.js';
import { mountCalendar, unmountCalendar, refreshCalendar } from './calendar.js';
import { mountFood, unmountFood, refreshFood } from './food.js';
import { resetLibrary } from './library-picker.js';
import { flush } from './member-api.js';
import { closeDrawer } from './drawer.js';
import { show as showRest, hideRest, refreshRest } from './rest-timer.js';

const VIEWS = ['today', 'food', 'progress', 'calendar', 'trainer'];
const ICONS = { today: '✓', food: '◔', progress: '↗', calendar: '▦', trainer: '✎' };
const app = { nav: null, root: null, view: null, onHash: null };
const $ = (id) => document.getElementById(id);

function viewFromHash() {
  const value = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('view');
  return VIEWS.includes(value) ? value : 'today';
}

function setHash(view) {
  const url = new URL(window.location.href);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  hash.set('view', view);
  url.hash = `#${hash.toString()}`;
  if (url.href !== window.location.href) window.history.pushState(window.history.state, '', url.href);
}

function unmountCurrent() {
  if (app.view === 'today') unmountToday();
  if (app.view === 'progress') unmountProgress();
  if (app.view === 'calendar') unmountCalendar();
  if (app.view === 'food') unmountFood();
}

function show(view) {
  if (!app.root) return;
  if (view === app.view) return;
  unmountCurrent();
  app.view = view;
  document.body.dataset.memberView = view;
  for (const link of app.nav.querySelectorAll('a')) {
    link.setAttribute('aria-current', link.dataset.view === view ? 'page' : 'false');
  }
  const chat = view === 'trainer';
  $('workspace').hidden = !chat;
  app.root.hidden = chat;
  $('menu-toggle').hidden = !chat;
  closeDrawer();
  if (view === 'today') mountToday(app.root);
  if (view === 'progress') mountProgress(app.root);
  if (view === 'calendar') mountCalendar(app.root);
  if (view === 'food') mountFood(app.root);
  if (!chat) app.root.scrollTop = 0;
  document.title = `${t(`train.nav.${view}`)} · ${t('app.title')}`;
}

function navLink(view) {
  return h('a', { href: `#view=${view}`, class: 'member-tab', testid: `nav-${view}`, 'data-view': view,
                  onclick: (event) => {
                    if (event.metaKey || event.ctrlKey || event.shiftKey) return;
                    event.preventDefault();
                    setHash(view);
                    show(view);
                  } },
  h('span', { class: 'member-tab-icon', 'aria-hidden': 'true', text: ICONS[view] }),
  h('span', { class: 'member-tab-label', i18n: `train.nav.${view}` }));
}

/** Member mode: the trainer's chat is mounted once (it keeps its session), the app's views around it. */
export function enterMemberApp() {
  enterMemberMode();
  document.body.classList.add('member-app');
  app.nav = h('nav', { class: 'member-nav', testid: 'member-nav', 'aria-label': t('train.nav.label') },
    VIEWS.map(navLink));
  app.root = h('section', { class: 'member-view', id: 'member-view', testid: 'member-view', tabindex: '-1' });
  document.querySelector('main.main').append(app.root);
  document.body.insertBefore(app.nav, document.querySelector('main.main'));
  app.view = null;
  app.onHash = () => show(viewFromHash());
  window.addEventListener('popstate', app.onHash);
  window.addEventListener('hashchange', app.onHash);
  show(viewFromHash());
  showRest();  // a rest still running from before a reload
  flush();
}

export function leaveMemberApp() {
  if (!app.root) {
    leaveMemberMode();
    return;
  }
  unmountCurrent();
  window.removeEventListener('popstate', app.onHash);
  window.removeEventListener('hashchange', app.onHash);
  app.nav?.remove();
  app.root?.remove();
  app.nav = null;
  app.root = null;
  app.view = null;
  document.body.classList.remove('member-app');
  delete document.body.dataset.memberView;
  $('workspace').hidden = false;
  $('menu-toggle').hidden = false;
  resetLibrary();
  hideRest();
  leaveMemberMode();
}

/** A language switch: the service's words (exercise names, cues) come again in the new language. */
export function relocalizeMemberApp() {
  if (!app.root) return;
  resetLibrary();
  app.nav?.setAttribute('aria-label', t('train.nav.label'));
  if (app.view === 'today') refreshToday();
  if (app.view === 'progress') refreshProgress();
  if (app.view === 'calendar') refreshCalendar();
  if (app.view === 'food') refreshFood();
  refreshRest();
  document.title = `${t(`train.nav.${app.view}`)} · ${t('app.title')}`;
}
