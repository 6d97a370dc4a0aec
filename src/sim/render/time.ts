/** ISO 8601 in UTC with a trailing Z, as the contract spells every timestamp. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
