/**
 * The cues a timer gives at a phase's end: a short tone (Web Audio) and a vibration, each where the device allows
 * and the member has not turned it off (their choices kept in localStorage). The workout timer (timer.js) and the
 * rest timer (rest-timer.js) both sound through here.
 */
const PREFS = 'spotter.timer';
let audio = null;

export function prefs() {
  try {
    return { sound: true, vibrate: true, ...JSON.parse(localStorage.getItem(PREFS) ?? '{}') };
  } catch {
    return { sound: true, vibrate: true };
  }
}

export function setPref(key, value) {
  localStorage.setItem(PREFS, JSON.stringify({ ...prefs(), [key]: value }));
}

export const canVibrate = () => typeof navigator.vibrate === 'function';
export const canBeep = () => Boolean(window.AudioContext || window.webkitAudioContext);

/** A browser starts audio only after a gesture: a press that starts a timer wakes it. */
export function wakeAudio() {
  if (audio?.state === 'suspended') audio.resume();
}

/** A tone: lower for a rest or a transition starting, higher for work. */
export function beep(kind) {
  if (!prefs().sound || !canBeep()) return false;
  try {
    audio ??= new (window.AudioContext || window.webkitAudioContext)();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = kind === 'rest' || kind === 'transition' ? 660 : 880;
    gain.gain.setValueAtTime(0.001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.3, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.4);
    return true;
  } catch {
    return false;
  }
}

export function buzz(kind) {
  if (!prefs().vibrate || !canVibrate()) return false;
  try {
    return navigator.vibrate(kind === 'rest' ? [120, 80, 120] : [250]);
  } catch {
    return false;
  }
}
