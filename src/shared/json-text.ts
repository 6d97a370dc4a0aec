/**
 * A value as JSON text for a message or a log line (String of it when JSON has none, as for
 * undefined). Never throws: a value nested deeper than JSON.stringify (or String) can
 * follow is described instead.
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return `(${Array.isArray(value) ? 'array' : typeof value} too deeply nested to show)`;
  }
}
