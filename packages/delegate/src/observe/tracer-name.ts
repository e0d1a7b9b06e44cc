/** The instrumentation scope of every span this package opens (the default tracer's name). */
export const A2A_TRACER_NAME = '@switchboard/a2a';
