/** Where compiled entries are kept. */
export declare const COMPILED_CACHE_DIR: string;
/**
 * The compiled form of a TypeScript entry point (absolute, or relative to the package root),
 * from the cache while its sources are unchanged; null when it cannot be compiled here.
 */
export declare function compiledEntry(entry: string, cacheDir?: string): Promise<string | null>;
/** A worker thread's script: its TypeScript entry compiled, or else `fallback`. */
export declare function compiledWorker(entry: URL, fallback: URL): Promise<string | URL>;
