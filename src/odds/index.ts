export * from './american.ts';
