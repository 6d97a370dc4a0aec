/** Whether a config's `module` value is a path to a strategy file rather than a built-in strategy's name. */
export declare function isModulePath(ref: string): boolean;
/** Whether a config's text can be read and names built-in strategies only. */
export declare function namesBuiltInStrategiesOnly(text: string): boolean;
