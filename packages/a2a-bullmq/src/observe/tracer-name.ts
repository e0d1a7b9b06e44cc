/** The instrumentation scope of every span this package opens (the default tracer's name). */
export const QUEUE_TRACER_NAME = '@switchboard/a2a-bullmq';
