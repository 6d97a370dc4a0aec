// Worker threads do not inherit the parent's TypeScript loader: register it here, as
// bin/linesmith.js does for the main thread, then run the worker itself.
import { registerLoader } from '../loader/register.mjs';

registerLoader();
await import('./sweep-worker.ts');
