// Worker threads do not inherit the parent's TypeScript loader: register tsx here, as
// bin/linesmith.js does for the main thread, then run the worker itself.
import { register } from 'tsx/esm/api';

register();
await import('./sweep-worker.ts');
