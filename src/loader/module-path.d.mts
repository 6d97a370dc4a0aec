/** Whether a config's `module` value is a path to a strategy file rather than a built-in strategy's name. */
export declare function isModulePath(ref: string): boolean;
