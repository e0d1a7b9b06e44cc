/** One instruction of a Dockerfile: `RUN`, `COPY`, ... with its arguments joined on one line. */
export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

/** One build stage: its `FROM` and the instructions up to the next `FROM`. */
export interface Stage {
  image: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** A Dockerfile read into its global `ARG`s and its stages (comments dropped, `\` continuations joined). */
export function parseDockerfile(text: string): { globalArgs: Instruction[]; stages: Stage[] } {
  const instructions: Instruction[] = [];
  let pending: { text: string; line: number } | undefined;
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (pending === undefined && (line === '' || line.startsWith('#'))) continue;
    if (pending !== undefined && line.startsWith('#')) continue;
    const continued = line.endsWith('\\');
    const body = continued ? line.slice(0, -1).trim() : line;
    pending = pending
      ? { text: `${pending.text} ${body}`, line: pending.line }
      : { text: body, line: index + 1 };
    if (continued) continue;
    const [keyword = '', ...rest] = pending.text.split(/\s+/);
    instructions.push({ keyword: keyword.toUpperCase(), args: rest.join(' '), line: pending.line });
    pending = undefined;
  }
  const globalArgs: Instruction[] = [];
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [image = '', as, name] = instruction.args.replace(/--platform=\S+\s*/, '').split(/\s+/);
      stages.push({ image, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (stages.length === 0) {
      globalArgs.push(instruction);
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return { globalArgs, stages };
}

/** The exec-form (JSON array) arguments of an instruction such as `ENTRYPOINT ["a", "b"]`. */
export function execForm(args: string): string[] {
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) {
    throw new Error(`not an exec-form array: ${args}`);
  }
  return parsed;
}
