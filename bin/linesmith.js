#!/usr/bin/env node
// Launcher: registers the TypeScript loader (tsx, and the hooks that load strategies from
// the user's own folders) in this process and runs the TypeScript CLI, so `npx linesmith`
// works right after `npm ci` and signals reach the CLI directly. A backtest runs in a child
// process started with the replay's young generation (src/loader/replay-process.mjs).
import { registerLoader } from '../src/loader/register.mjs';
import { runReplayInSizedProcess } from '../src/loader/replay-process.mjs';

if (!(await runReplayInSizedProcess())) {
  registerLoader();
  await import('../src/cli/main.ts');
}
