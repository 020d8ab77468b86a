/**
 * Words and numbers of the member app in the UI language: dates of the gym's days,
 * clock times, records (PR badges), and small dialogs (confirm, how-to) every screen shares.
 */
import { h } from './dom.js';
import { t, currentLocale } from './i18n.js';
import { num, loadText } from './member-cards.js';

/** The member's one day format: "Sun, November 29", "вс, 29 ноября" (the month in the genitive, as a date says it),
 * "יום א׳, 29 בנובמבר". The trainer writes its days the same way (core.i18n.format_day). */
export const DAY = { weekday: 'short', day: 'numeric', month: 'long' };

/** A YYYY-MM-DD day of the gym as the UI language writes it. */
export function dayLabel(iso, options = DAY) {
  const [y, m, d] = String(iso ?? '').split('-').map(Number);
  if (!y || !m || !d) return '';
  return new Intl.DateTimeFormat(currentLocale(), { ...options, timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** "1:05" from seconds (hours when needed: "1:02:03"). */
export function clock(totalSeconds) {
  const s = Math.max(0, Math.round(Number(totalSeconds) || 0));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/** A record in words: "Heaviest 15 kg", "12 reps at 15 kg", "Est. 1RM 20 kg (Epley)". */
export function recordText(record, unit) {
  if (record.kind === 'most_reps_at_load') {
    return t('train.pr.most_reps_at_load', { reps: num(record.reps), load: loadText(record.load, unit) });
  }
  if (record.kind === 'heaviest_load') return t('train.pr.heaviest_load', { load: loadText(record.value, unit) });
  return t('train.pr.estimated_1rm', { load: loadText(record.value, unit), formula: t('train.pr.epley') });
}

/** The PR badges of a set. */
export function recordBadges(records, unit) {
  return (records ?? []).map((r) => h('span', {
    class: 'pr-badge', testid: 'pr-badge', 'data-kind': r.kind, title: t('train.pr.title'), dir: 'auto',
    text: `${t('train.pr.short')} · ${recordText(r, unit)}`,
  }));
}

/** A modal question; resolves true when the member confirms. */
export function confirmDialog(message, { ok = 'train.confirm.ok', cancel = 'train.confirm.cancel', danger = false } = {}) {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'modal', testid: 'confirm-dialog' },
      h('p', { class: 'confirm-text', dir: 'auto', text: message }),
      h('div', { class: 'modal-actions btn-row' },
        h('button', { type: 'button', class: 'btn', testid: 'confirm-cancel', i18n: cancel, onclick: () => close(false) }),
        h('button', { type: 'button', class: `btn ${danger ? 'danger' : 'primary'}`, testid: 'confirm-ok', i18n: ok,
                      onclick: () => close(true) })));
    const close = (answer) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      close(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector('[data-testid="confirm-ok"]').focus();
  });
}

/** The three cues of an exercise: set up, do, avoid. */
export function showHow(how) {
  if (!how) return;
  const dialog = h('dialog', { class: 'modal how-dialog', testid: 'how-dialog', 'aria-labelledby': 'how-title' },
    h('h2', { id: 'how-title', dir: 'auto', text: how.name }),
    h('ol', { class: 'how-cues' }, ['setup', 'do', 'avoid'].map((cue) => h('li', { class: `how-${cue}`, testid: `how-${cue}` },
      h('span', { class: 'how-label', i18n: `train.how.${cue}` }), h('span', { dir: 'auto', text: how[cue] })))),
    h('div', { class: 'modal-actions' },
      h('button', { type: 'button', class: 'btn primary', testid: 'how-close', i18n: 'train.close',
                    onclick: () => { dialog.close(); dialog.remove(); } })));
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

/** A polite announcement for screen readers (and a test hook): the last thing the app said. */
export function announce(text) {
  let region = document.getElementById('member-announce');
  if (!region) {
    region = h('div', { id: 'member-announce', class: 'sr-only', role: 'status', 'aria-live': 'polite',
                        testid: 'announce' });
    document.body.append(region);
  }
  region.textContent = text;
}
