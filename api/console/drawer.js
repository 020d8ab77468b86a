/**
 * Phones: the conversation list is a drawer over the chat, opened from the header's menu button and
 * closed by choosing a conversation, starting a new one, the backdrop or Escape.
 */
const OPEN_CLASS = 'drawer-open';

export function closeDrawer() {
  document.body.classList.remove(OPEN_CLASS);
  document.getElementById('menu-toggle')?.setAttribute('aria-expanded', 'false');
}

function toggleDrawer() {
  const open = document.body.classList.toggle(OPEN_CLASS);
  document.getElementById('menu-toggle')?.setAttribute('aria-expanded', String(open));
}

export function initDrawer() {
  document.getElementById('menu-toggle')?.addEventListener('click', toggleDrawer);
  document.getElementById('drawer-backdrop')?.addEventListener('click', closeDrawer);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') closeDrawer();
  });
  document.getElementById('sidebar')?.addEventListener('click', (event) => {
    if (event.target.closest('[data-testid="conversation-item"], [data-testid="new-conversation"]')) closeDrawer();
  });
}
