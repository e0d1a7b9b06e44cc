export type { Output } from './io/output.js';
export { EXIT, processOutput } from './io/output.js';
export { buildProgram, main } from './main.js';
