/** How much of a raw frame goes into a log line: enough to recognise it, never a whole book. */
export const FRAME_LOG_CHARS = 200;

export function frameForLog(text: string): string {
  return text.length <= FRAME_LOG_CHARS ? text : `${text.slice(0, FRAME_LOG_CHARS)}… (${text.length} chars)`;
}
