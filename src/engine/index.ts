export * from './types.ts';
export { MatchingEngine, type EngineOptions } from './engine.ts';
export { createIdGenerator, isObjectId, type IdGenerator } from './ids.ts';
export { liveDelayMs, DEFAULT_LIVE_DELAY_SECONDS } from './live-delay.ts';
export { validatePlaceInput, wireOf, participantIdOf, type ValidOrder } from './wire.ts';
