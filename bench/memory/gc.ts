import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * A full garbage collection before a memory sample, so the sample reads what is live rather
 * than when the collector last ran: `gc` of `--expose-gc` when the process has it, otherwise
 * the same function obtained by setting the flag at run time.
 */
export function fullGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}
