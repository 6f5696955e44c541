// The steps of docker/Dockerfile as scripts/check-image.mjs performs them without a Docker engine:
// its stages, and in each the instructions in order, with RUN commands split into the commands a
// shell runs one after the other. Only what the check needs of the Dockerfile syntax is read.

/**
 * @typedef {{ keyword: string, args: string, line: number, flags: Record<string, string> }} Instruction
 * @typedef {{ name: string, image: string, instructions: Instruction[] }} Stage
 */

/** The Dockerfile's instructions, continuation lines joined, comments and parser directives left out. */
export function parseInstructions(text) {
  /** @type {Instruction[]} */
  const instructions = [];
  let pending = '';
  let start = 0;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trimEnd();
    if (pending === '' && (line.trim() === '' || line.trimStart().startsWith('#'))) return;
    if (pending !== '' && line.trimStart().startsWith('#')) return;
    if (pending === '') start = index + 1;
    const continued = line.endsWith('\\');
    pending += (pending === '' ? '' : ' ') + (continued ? line.slice(0, -1) : line).trim();
    if (continued) return;
    const match = /^(\S+)\s*(.*)$/.exec(pending);
    pending = '';
    if (!match) return;
    let args = match[2] ?? '';
    /** @type {Record<string, string>} */
    const flags = {};
    for (let flag = /^--([a-z-]+)=(\S+)\s+/.exec(args); flag; flag = /^--([a-z-]+)=(\S+)\s+/.exec(args)) {
      flags[flag[1] ?? ''] = flag[2] ?? '';
      args = args.slice(flag[0].length);
    }
    instructions.push({ keyword: (match[1] ?? '').toUpperCase(), args, line: start, flags });
  });
  return instructions;
}

/** The stages, each with the instructions after its FROM. */
export function parseStages(text) {
  /** @type {Stage[]} */
  const stages = [];
  for (const instruction of parseInstructions(text)) {
    if (instruction.keyword === 'FROM') {
      const match = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (!match) throw new Error(`docker/Dockerfile:${instruction.line}: cannot read FROM ${instruction.args}`);
      stages.push({ name: match[2] ?? String(stages.length), image: match[1] ?? '', instructions: [] });
    } else if (stages.length === 0) {
      throw new Error(`docker/Dockerfile:${instruction.line}: ${instruction.keyword} before any FROM`);
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

/** `A=1 B="two words"` (ENV's only form the Dockerfile uses) as pairs. */
export function parseEnv(args) {
  /** @type {Record<string, string>} */
  const env = {};
  for (const match of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("([^"]*)"|\S*)/g)) {
    env[match[1] ?? ''] = match[3] ?? match[2] ?? '';
  }
  return env;
}

/** An exec-form command (`["node", "x.js"]`); the shell form is refused, as the check runs argv. */
export function parseExec(args, line) {
  const parsed = JSON.parse(args);
  if (!Array.isArray(parsed) || parsed.some((part) => typeof part !== 'string')) {
    throw new Error(`docker/Dockerfile:${line}: use the exec form (a JSON array of strings)`);
  }
  return /** @type {string[]} */ (parsed);
}

/**
 * A RUN's shell commands, split at `&&` outside quotes, each classed by how the check performs it:
 * `packages` (apt-get install: the tools must be on this machine), `skip` (apt bookkeeping, and
 * chown to the image's user, who does not exist here; the check runs as the current user) or `run`.
 * @returns {{ kind: 'packages' | 'skip' | 'run', command: string, packages?: string[] }[]}
 */
export function splitRun(args) {
  const commands = [];
  let current = '';
  let quote = '';
  for (let index = 0; index < args.length; index += 1) {
    const char = args[index];
    if (quote !== '') {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '&' && args[index + 1] === '&') {
      commands.push(current.trim());
      current = '';
      index += 1;
      continue;
    }
    current += char;
  }
  commands.push(current.trim());
  return commands.map((command) => {
    const words = command.split(/\s+/);
    if (words[0] === 'apt-get' && words.includes('install')) {
      const packages = words.slice(words.indexOf('install') + 1).filter((word) => !word.startsWith('-'));
      return { kind: 'packages', command, packages };
    }
    if (words[0] === 'apt-get' || command.startsWith('rm -rf /var/lib/apt/lists')) return { kind: 'skip', command };
    if (words[0] === 'chown') return { kind: 'skip', command };
    return { kind: 'run', command };
  });
}

/** `.dockerignore`'s patterns, as a test of a context-relative path (a pattern covers what is below it). */
export function dockerignore(text, matchesGlob) {
  const rules = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => (line.startsWith('!') ? { keep: true, glob: line.slice(1) } : { keep: false, glob: line }));
  return (/** @type {string} */ file) => {
    const parts = file.split('/');
    const prefixes = parts.map((_part, index) => parts.slice(0, index + 1).join('/'));
    let ignored = false;
    for (const rule of rules) {
      if (prefixes.some((prefix) => matchesGlob(prefix, rule.glob))) ignored = !rule.keep;
    }
    return ignored;
  };
}
