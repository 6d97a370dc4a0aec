import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * A full garbage collection before a memory sample, so the sample reads what is live rather
 * than when the collector last ran: `gc` of `--expose-gc` when the process has it, otherwise
 * the same function obtained by setting the flag at run time.
 *
 * The collection compacts every page of the old generation, as V8's memory reducer does
 * once a process has been idle for a few seconds. A plain full GC moves objects only off
 * the pages V8's heuristics pick, so the pages it keeps committed around the live objects
 * depend on how the run's bursts happened to fill them: in the 200-game paper run the heap
 * in use grew 63 → 66 MB over the second half while V8's committed heap went 175 → 192 MB
 * and dragged the resident set with it, a figure that moved by ±10% between runs of the
 * same code. After a compacting collection the old generation's committed size is within
 * a few percent of what it holds, so the sample reads what the program keeps.
 */
export function fullGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  let gc = exposed;
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  const collect = gc;
  return () => {
    v8.setFlagsFromString('--compact-on-every-full-gc');
    try {
      collect();
    } finally {
      v8.setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
}
