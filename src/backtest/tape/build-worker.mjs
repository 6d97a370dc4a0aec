// Worker threads do not inherit the parent's TypeScript loader: register it here, as
// bin/linesmith.js does for the main thread, then run the thread itself.
import { registerLoader } from '../../loader/register.mjs';

registerLoader();
await import('./build-worker.ts');
