export * from './fill.ts';
export * from './rounding.ts';
export * from './position.ts';
export * from './grading.ts';
export * from './liability.ts';
