// How linesmith loads TypeScript, in the main thread (bin/linesmith.js) and in each worker
// thread (workers do not inherit the parent's loader): tsx's ES module loader, then the
// strategy hooks on top of it (hooks registered later run first).
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

export function registerLoader() {
  registerTsx();
  register('./strategy-hooks.mjs', import.meta.url, {
    data: { self: new URL('../../package.json', import.meta.url).href },
  });
}
