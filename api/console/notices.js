/** The error banner (with the server's trace id) and the blocking daily-budget notice. */
import { h } from './dom.js';
import { t } from './i18n.js';

const slot = () => document.getElementById('banner-slot');

/**
 * Show one error banner, replacing any previous one. Accepts an ApiError, an SSE `error`
 * payload {code, message, traceId}, or any Error. Session errors go to the sign-in screen.
 */
export function showError(err) {
  if (!err || err.auth) return;
  const message = err.message || t('errors.generic');
  const traceId = err.traceId || null;
  const banner = h(
    'div',
    { class: 'banner', role: 'alert', testid: 'error-banner', 'data-code': err.code || null, 'data-trace-id': traceId },
    h(
      'div',
      { class: 'banner-body' },
      h('p', { class: 'banner-message', dir: 'auto', text: message }),
      traceId
        ? h(
            'p',
            { class: 'banner-trace' },
            h('span', { i18n: 'errors.traceId' }),
            ' ',
            h('code', { dir: 'ltr', testid: 'trace-id', text: traceId }),
          )
        : null,
    ),
    h('button', {
      type: 'button',
      class: 'icon-btn',
      testid: 'dismiss-error',
      'data-i18n-aria-label': 'errors.dismiss',
      'data-i18n-title': 'errors.dismiss',
      text: '×',
      onclick: clearError,
    }),
  );
  slot()?.replaceChildren(banner);
}

export function clearError() {
  slot()?.replaceChildren();
}

/** Blocking modal for agent_budget_exceeded; the role decides the upsell line. */
export function showBudgetNotice(message, role) {
  document.querySelector('[data-testid="budget-notice"]')?.remove();
  const ownerish = role === 'owner' || role === 'admin';
  const dialog = h(
    'dialog',
    { class: 'modal', testid: 'budget-notice', 'aria-labelledby': 'budget-title' },
    h('h2', { id: 'budget-title', i18n: 'budget.title' }),
    h('p', { class: 'modal-message', dir: 'auto', text: message }),
    h('p', { class: 'muted', i18n: ownerish ? 'budget.ownerHint' : 'budget.staffHint' }),
    h(
      'form',
      { method: 'dialog', class: 'modal-actions' },
      h('button', { type: 'submit', class: 'btn primary', testid: 'budget-close', i18n: 'budget.close' }),
    ),
  );
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  if (typeof dialog.showModal === 'function') dialog.showModal();
  else dialog.setAttribute('open', '');
}
