#!/usr/bin/env node
// Launcher: registers tsx's loader in this process and runs the TypeScript CLI, so
// `npx linesmith` works right after `npm ci` and signals reach the CLI directly.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
