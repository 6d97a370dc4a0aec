/** Let promise callbacks run (answers, and what reacts to them) without moving any clock. */
export async function flushMicrotasks(turns = 10): Promise<void> {
  for (let i = 0; i < turns; i++) await null;
}
