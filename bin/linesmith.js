#!/usr/bin/env node
// Launcher: registers the TypeScript loader (tsx, and the hooks that load strategies from
// the user's own folders) in this process and runs the TypeScript CLI, so `npx linesmith`
// works right after `npm ci` and signals reach the CLI directly.
import { registerLoader } from '../src/loader/register.mjs';

registerLoader();
await import('../src/cli/main.ts');
