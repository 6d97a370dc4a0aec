/** Semi-space size of a replay's process, MB (a worker thread's young generation is three of them). */
export declare const REPLAY_SEMI_SPACE_MB: number;
/**
 * Runs a replaying command again in a child process with the replay's young generation,
 * passing its exit status on (and any signal this process gets to it); false when this
 * process runs the command itself.
 */
export declare function runReplayInSizedProcess(argv?: readonly string[]): Promise<boolean>;
/** Whether the config a command's arguments name can be read and names built-in strategies only. */
export declare function configNamesBuiltInStrategiesOnly(args: readonly string[]): boolean;
