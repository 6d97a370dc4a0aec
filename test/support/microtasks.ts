/** Let promise callbacks run (answers, and what reacts to them) without moving any clock. */
export async function flushMicrotasks(turns = 10): Promise<void> {
  for (let i = 0; i < turns; i++) await null;
}

/** Move a manual clock on `ms` in 1 s steps, letting promise callbacks run after each (a runtime ticking once a second). */
export async function stepSeconds(time: { advance(ms: number): unknown }, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 1_000) {
    time.advance(1_000);
    await flushMicrotasks();
  }
}
