/** How much of a raw frame goes into a log line: enough to recognise it, never a whole book. */
export const FRAME_LOG_CHARS = 200;

export function frameForLog(text: string): string {
  return text.length <= FRAME_LOG_CHARS ? text : `${text.slice(0, FRAME_LOG_CHARS)}… (${text.length} chars)`;
}

/**
 * A parsed value as log text, truncated. Never throws: a value nested deeper than
 * JSON.stringify (or String) can follow is described instead of serialised.
 */
export function valueForLog(value: unknown): string {
  try {
    return frameForLog(JSON.stringify(value) ?? String(value));
  } catch {
    return `(${Array.isArray(value) ? 'array' : typeof value} too deeply nested to show)`;
  }
}
