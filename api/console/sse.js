/**
 * A small Server-Sent Events reader for fetch() response bodies.
 *
 * EventSource cannot POST or send headers, so the console reads the stream itself:
 * `createSseParser` turns text chunks into (type, data) events, `readSse` feeds it from a
 * Response body. Handles `event:` / `data:` fields, multi-line data, comments, frames split
 * across chunks anywhere (even between CR and LF), and LF, CRLF or lone CR line endings.
 * A frame's `id` (a turn's `<turnId>:<seq>`) is handed over with it: a dropped stream resumes after it.
 */

/**
 * @param {(type: string, data: any, id: string) => void} onEvent called once per complete frame; data is
 *   the parsed JSON when the payload is JSON, else the raw string; id the stream's last event id.
 */
export function createSseParser(onEvent) {
  let buffer = '';
  let scanFrom = 0;
  let eventType = '';
  let dataLines = [];
  let started = false;
  let lastId = '';

  function dispatch() {
    if (!dataLines.length) {
      eventType = '';
      return;
    }
    const raw = dataLines.join('\n');
    let data = raw;
    try {
      data = JSON.parse(raw);
    } catch {
      // Not JSON: hand over the raw text.
    }
    const fallbackType = data && typeof data === 'object' && typeof data.type === 'string' ? data.type : 'message';
    const type = eventType || fallbackType;
    eventType = '';
    dataLines = [];
    onEvent(type, data, lastId);
  }

  function processLine(line) {
    if (line === '') {
      dispatch();
      return;
    }
    if (line.startsWith(':')) return; // comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') eventType = value;
    else if (field === 'data') dataLines.push(value);
    else if (field === 'id' && !value.includes('\0')) lastId = value;
    // `retry` means nothing here (the console reconnects by itself); unknown fields are ignored.
  }

  return {
    /** Feed decoded text. */
    push(text) {
      if (!text) return;
      if (!started) {
        started = true;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      buffer += text;
      let lineStart = 0;
      let i = scanFrom;
      while (i < buffer.length) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') {
          i += 1;
          continue;
        }
        // A CR at the very end may be the first half of CRLF: wait for the next chunk.
        if (c === '\r' && i === buffer.length - 1) break;
        processLine(buffer.slice(lineStart, i));
        i += c === '\r' && buffer[i + 1] === '\n' ? 2 : 1;
        lineStart = i;
      }
      buffer = buffer.slice(lineStart);
      scanFrom = Math.max(0, i - lineStart);
    },
    /** The stream ended: flush a trailing line and a frame that lacked its blank line. */
    end() {
      if (buffer) processLine(buffer.replace(/\r$/, ''));
      buffer = '';
      scanFrom = 0;
      dispatch();
    },
  };
}

/** The server sends a comment at least this often on a live stream: silence longer than this is a dead link. */
export const SILENCE_MS = 45000;

/**
 * Read an SSE response body to its end, calling onEvent per frame. Rejects with the fetch
 * AbortError when the request's signal is aborted, and with a `StreamSilent` error when nothing
 * (not even a keep-alive comment) arrived for `silenceMs` (a connection that died without closing).
 * @param {Response} response
 * @param {(type: string, data: any, id: string) => void} onEvent
 */
export async function readSse(response, onEvent, { silenceMs = SILENCE_MS, interrupt = null } = {}) {
  const parser = createSseParser(onEvent);
  if (!response.body) {
    parser.push(await response.text());
    parser.end();
    return;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let timer = null;
  // `interrupt` (the device went offline): stop reading this connection now, whatever it still delivers.
  const interrupted = new Promise((_, reject) => {
    if (!interrupt) return;
    const stop = () => {
      const err = new Error('the network went away');
      err.name = 'StreamInterrupted';
      reader.cancel(err).catch(() => {});
      reject(err);
    };
    if (interrupt.aborted) stop();
    else interrupt.addEventListener('abort', stop, { once: true });
  });
  interrupted.catch(() => {});
  const silent = () => new Promise((_, reject) => {
    timer = setTimeout(() => {
      const err = new Error('no data from the server');
      err.name = 'StreamSilent';
      reader.cancel(err).catch(() => {});
      reject(err);
    }, silenceMs);
  });
  try {
    for (;;) {
      const { value, done } = await Promise.race([reader.read(), silent(), interrupted]);
      clearTimeout(timer);
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
    parser.end();
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
}

/** A turn frame's `<turnId>:<seq>` id, or null. */
export function turnFrameId(id) {
  const at = String(id ?? '').lastIndexOf(':');
  if (at <= 0) return null;
  const seq = Number(id.slice(at + 1));
  return Number.isSafeInteger(seq) && seq > 0 ? { turnId: id.slice(0, at), seq } : null;
}

/** Wait `ms` (or until the device is back online), or reject with an AbortError as soon as `signal` aborts. */
export function pause(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('aborted', 'AbortError'));
      return;
    }
    const done = () => {
      clearTimeout(timer);
      globalThis.removeEventListener?.('online', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    globalThis.addEventListener?.('online', done, { once: true });
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      globalThis.removeEventListener?.('online', done);
      reject(new DOMException('aborted', 'AbortError'));
    }, { once: true });
  });
}

/** An AbortSignal that aborts when the device goes offline (the connection in use is gone or going). */
function offlineSignal() {
  const leg = new AbortController();
  const gone = () => leg.abort();
  globalThis.addEventListener?.('offline', gone, { once: true });
  return { signal: leg.signal, release: () => globalThis.removeEventListener?.('offline', gone) };
}

/** Reconnect delays: 0.5 s doubling to 8 s. */
export const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];

/**
 * Read a turn's stream and, when the connection drops before `done` (an error, 45 s of silence, or the device
 * going offline), reconnect to
 * `GET …/turns/{turnId}/stream` with `Last-Event-ID` (0.5 → 8 s apart) until `done`: every frame is handed to
 * `onEvent` once, in order (a frame at or below the last seq seen is skipped).
 * @param {Response} response the first reader (the POST that opened the turn, or a join)
 * @param {{onEvent: (type: string, data: any) => void, reconnect: (lastEventId: string, signal: AbortSignal) =>
 *   Promise<Response>, signal: AbortSignal, onReconnecting?: (waiting: boolean) => void, turnId?: string}} opts
 * @returns {Promise<{turnId: string|null, done: boolean}>} resolves once `done` arrived, or when it cannot go on
 *   (the turn is gone, or the signal aborted: rejects with the AbortError)
 */
export async function followTurn(response, { onEvent, reconnect, signal, onReconnecting = () => {}, turnId = null }) {
  const seen = { turnId: turnId ?? response.headers?.get?.('x-turn-id') ?? null, seq: 0, done: false };
  const handle = (type, data, id) => {
    const parsed = turnFrameId(id);
    if (parsed) {
      if (parsed.seq <= seen.seq) return; // already shown
      seen.turnId = parsed.turnId;
      seen.seq = parsed.seq;
    } else if (data && typeof data === 'object' && data.turnId) {
      seen.turnId = data.turnId;
    }
    if (type === 'done') seen.done = true;
    onEvent(type, data);
  };
  let attempt = 0;
  let current = response;
  for (;;) {
    const offline = offlineSignal();
    try {
      await readSse(current, handle, { interrupt: offline.signal });
    } catch (err) {
      if (err?.name === 'AbortError' && signal.aborted) throw err;
      console.warn('spotter: stream broke', err);
    } finally {
      offline.release();
    }
    if (seen.done || !seen.turnId) return { turnId: seen.turnId, done: seen.done };
    onReconnecting(true);
    for (;;) {
      await pause(BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)], signal);
      attempt += 1;
      try {
        current = await reconnect(`${seen.turnId}:${seen.seq}`, signal);
        break;
      } catch (err) {
        if (err?.name === 'AbortError' && signal.aborted) throw err;
        if (err?.status && err.status !== 429 && err.status < 500) return { turnId: seen.turnId, done: false };
      }
    }
    onReconnecting(false);
    attempt = 0;
  }
}
