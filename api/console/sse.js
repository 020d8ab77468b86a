/**
 * A small Server-Sent Events reader for fetch() response bodies.
 *
 * EventSource cannot POST or send headers, so the console reads the stream itself:
 * `createSseParser` turns text chunks into (type, data) events, `readSse` feeds it from a
 * Response body. Handles `event:` / `data:` fields, multi-line data, comments, frames split
 * across chunks anywhere (even between CR and LF), and LF, CRLF or lone CR line endings.
 */

/**
 * @param {(type: string, data: any) => void} onEvent called once per complete frame; data is
 *   the parsed JSON when the payload is JSON, else the raw string.
 */
export function createSseParser(onEvent) {
  let buffer = '';
  let scanFrom = 0;
  let eventType = '';
  let dataLines = [];
  let started = false;

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
    onEvent(type, data);
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
    // `id` and `retry` mean nothing for a one-shot POST stream; unknown fields are ignored.
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

/**
 * Read an SSE response body to its end, calling onEvent per frame. Rejects with the fetch
 * AbortError when the request's signal is aborted.
 * @param {Response} response
 * @param {(type: string, data: any) => void} onEvent
 */
export async function readSse(response, onEvent) {
  const parser = createSseParser(onEvent);
  if (!response.body) {
    parser.push(await response.text());
    parser.end();
    return;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
    parser.end();
  } finally {
    reader.releaseLock();
  }
}
