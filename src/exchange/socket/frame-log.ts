import { jsonText } from '../../shared/json-text.ts';

/** How much of a raw frame goes into a log line: enough to recognise it, never a whole book. */
export const FRAME_LOG_CHARS = 200;

export function frameForLog(text: string): string {
  return text.length <= FRAME_LOG_CHARS ? text : `${text.slice(0, FRAME_LOG_CHARS)}… (${text.length} chars)`;
}

/** A parsed value as log text, truncated. Never throws (see `jsonText`). */
export function valueForLog(value: unknown): string {
  return frameForLog(jsonText(value));
}
