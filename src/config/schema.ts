import { z } from 'zod';
import type { SchemaContext } from './fields.ts';
import { backtestSection } from './sections/backtest.ts';
import { loggingSection } from './sections/logging.ts';
import { metricsSection } from './sections/metrics.ts';
import { paperSection } from './sections/paper.ts';
import { recordingSection } from './sections/recording.ts';
import { riskSection } from './sections/risk.ts';
import { strategiesSection } from './sections/strategies.ts';
import { venueSection } from './sections/venue.ts';

/**
 * The run configuration file as a whole. Every object is strict: an unknown key is an
 * error, so a misspelt limit never silently falls back to its default. `venue` is needed
 * by live runs only and `paper` by paper runs only; the command that runs the file checks
 * that the one it needs is there.
 */
export function configFileSchema(ctx: SchemaContext) {
  return z.strictObject(
    {
      venue: venueSection(ctx).optional(),
      paper: paperSection(ctx).optional(),
      strategies: strategiesSection,
      risk: riskSection(ctx),
      logging: loggingSection(ctx),
      recording: recordingSection(ctx),
      metrics: metricsSection(),
      backtest: backtestSection(),
    },
    {
      error: (iss) =>
        iss.code === 'invalid_type' ? `expected a mapping of sections: ${SECTIONS.join(', ')}` : undefined,
    },
  );
}

/** The file after validation and defaults: paths absolute, strategies not yet resolved to modules. */
export type ConfigFile = z.output<ReturnType<typeof configFileSchema>>;

/** Top-level sections, for messages that list them. */
export const SECTIONS = [
  'venue',
  'paper',
  'strategies',
  'risk',
  'logging',
  'recording',
  'metrics',
  'backtest',
] as const;
