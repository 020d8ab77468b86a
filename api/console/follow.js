/**
 * Follow the conversation: the chat log stays at the newest content unless the person scrolled
 * up on purpose; then a "jump to latest" button appears. What the person just sent is always shown.
 */
import { h } from './dom.js';

const NEAR_BOTTOM_PX = 48;

let scroller = null;
let button = null;
let following = true;
let lastTop = 0;

function distanceFromBottom() {
  return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
}

function updateButton() {
  if (button) button.hidden = following || distanceFromBottom() < NEAR_BOTTOM_PX;
}

function toBottom() {
  scroller.scrollTop = scroller.scrollHeight;
  lastTop = scroller.scrollTop;
}

/** Attach to the chat log; the "jump to latest" button goes into `host` (positioned over the log). */
export function initFollow(logEl, host) {
  scroller = logEl;
  button = h('button', {
    type: 'button',
    class: 'jump-latest',
    testid: 'jump-latest',
    i18n: 'chat.jumpToLatest',
    hidden: true,
    onclick: () => jumpToLatest(),
  });
  host.append(button);
  scroller.addEventListener('scroll', () => {
    const top = scroller.scrollTop;
    if (distanceFromBottom() < NEAR_BOTTOM_PX) following = true;
    else if (top < lastTop - 2) following = false; // moved up: the person is reading back
    lastTop = top;
    updateButton();
  }, { passive: true });
  // Any change inside the log (text deltas, cards re-rendering, confirmations) is followed.
  new MutationObserver(() => follow()).observe(scroller, { childList: true, subtree: true, characterData: true });
}

/** Run a DOM change in the log; follow it to the bottom unless the person scrolled up. */
export function follow(change) {
  change?.();
  if (!scroller) return;
  // A scroll up whose event has not been dispatched yet still counts: without this, a change
  // landing in the same frame would pull the reader back down before their scroll was seen.
  if (scroller.scrollTop < lastTop - 2 && distanceFromBottom() >= NEAR_BOTTOM_PX) following = false;
  if (following) toBottom();
  updateButton();
}

/** Scroll to the newest content and follow again (sending a message, the button, a reopen). */
export function jumpToLatest() {
  following = true;
  if (!scroller) return;
  toBottom();
  updateButton();
}

export function isFollowing() {
  return following;
}
