export * from './format.ts';
export {
  DEFAULT_MAX_FILE_BYTES,
  FeedRecorder,
  type FeedRecorderOptions,
  type FrameSocketLike,
  type RecorderSource,
  type RecorderStats,
  type RecorderSummary,
} from './feed-recorder.ts';
export {
  recordingFiles,
  RecordingReader,
  RecordingReadError,
  type ReadProblem,
  type RecordedEntry,
  type RecordingReaderOptions,
} from './reader.ts';
export { resultOf, type GameResult } from './results.ts';
export { RECORD_ALL, snapshotScopesOf, subscriptionOf } from './selection.ts';
export { driveVirtualTime, type VirtualDriveOptions } from './virtual-time.ts';
