/**
 * The composer: a textarea where Enter sends and Shift+Enter breaks the line, a Send button
 * (Stop while a reply streams) and the usage footer slot. Cloned from #composer-template.
 */
import { applyStrings } from './i18n.js';

const MAX_HEIGHT_PX = 240;

let textarea = null;
let sendButton = null;
let stopButton = null;
let handlers = { onSend() {}, onStop() {} };

function autosize() {
  if (!textarea) return;
  textarea.style.blockSize = 'auto';
  textarea.style.blockSize = `${Math.min(MAX_HEIGHT_PX, textarea.scrollHeight + 2)}px`;
}

function submit() {
  if (!textarea || sendButton.disabled || textarea.disabled) return;
  handlers.onSend(textarea.value);
}

/** @param {HTMLElement} slot @param {{onSend: (text: string) => void, onStop: () => void}} callbacks */
export function mountComposer(slot, callbacks) {
  handlers = callbacks;
  slot.replaceChildren(document.getElementById('composer-template').content.cloneNode(true));
  applyStrings(slot);
  textarea = slot.querySelector('[data-testid="composer"]');
  sendButton = slot.querySelector('[data-testid="send"]');
  stopButton = slot.querySelector('[data-testid="stop"]');
  const isMac = /mac|iphone|ipad/i.test(navigator.userAgentData?.platform ?? navigator.platform ?? '');
  const hint = slot.querySelector('.shortcut-hint');
  if (hint) {
    hint.dataset.i18nVars = JSON.stringify({ keys: isMac ? '⌘K' : 'Ctrl+K' });
    applyStrings(hint.parentElement);
  }
  slot.querySelector('form').addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });
  textarea.addEventListener('keydown', (event) => {
    // isComposing / 229: Enter that commits an IME composition must not send.
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && event.keyCode !== 229) {
      event.preventDefault();
      submit();
    }
  });
  textarea.addEventListener('input', autosize);
  stopButton.addEventListener('click', () => handlers.onStop());
}

export function unmountComposer(slot) {
  slot.replaceChildren();
  textarea = null;
  sendButton = null;
  stopButton = null;
}

export function focusComposer() {
  textarea?.focus();
}

export function setComposerBusy(busy) {
  if (!textarea) return;
  sendButton.disabled = busy || textarea.disabled;
  stopButton.hidden = !busy;
  textarea.closest('form')?.setAttribute('aria-busy', String(busy));
}

/** A conversation nobody chats in (an assistant's calls over MCP): the composer stays, closed. */
export function setComposerLocked(locked) {
  if (!textarea) return;
  textarea.disabled = locked;
  sendButton.disabled = locked;
}

export function clearComposer() {
  if (!textarea) return;
  textarea.value = '';
  autosize();
}

/** Put text back (a send that failed before streaming) or fill in a suggestion. */
export function fillComposer(text) {
  if (!textarea) return;
  textarea.value = text;
  autosize();
  textarea.focus();
  textarea.setSelectionRange(text.length, text.length);
}

document.addEventListener('spotter:suggest', (event) => fillComposer(event.detail ?? ''));
