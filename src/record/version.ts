import { createRequire } from 'node:module';

/** linesmith's own version, from package.json, for the meta record of every file. */
export const LINESMITH_VERSION: string = (createRequire(import.meta.url)('../../package.json') as { version: string })
  .version;
