// Types of scripts/dockerfile-steps.mjs, for the tests that read the Dockerfile through it.
export interface Instruction {
  keyword: string;
  args: string;
  line: number;
  flags: Record<string, string>;
}
export interface Stage {
  name: string;
  image: string;
  instructions: Instruction[];
}
export interface RunStep {
  kind: 'packages' | 'skip' | 'run';
  command: string;
  packages?: string[];
}
export function parseInstructions(text: string): Instruction[];
export function parseStages(text: string): Stage[];
export function parseEnv(args: string): Record<string, string>;
export function parseExec(args: string, line: number): string[];
export function splitRun(args: string): RunStep[];
export function dockerignore(
  text: string,
  matchesGlob: (file: string, glob: string) => boolean,
): (file: string) => boolean;
