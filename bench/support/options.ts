// The run's options and sizes, and the figures it has measured so far (one list, printed as it goes).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

export const root = path.resolve(import.meta.dirname, '../..');
const { values: options } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    soak: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
export const quick = options.quick;
export const soak = options.soak;
/** `--only P1,P3`: the figures to measure (with what they need: P3 is a ratio to P1); all by default. */
const only = options.only === undefined ? undefined : new Set(options.only.toUpperCase().split(/[\s,]+/));
export const wanted = (...ids: string[]): boolean => only === undefined || ids.some((id) => only.has(id));
/** Seconds per load run, runs per side, connections (quality.md: 32), profiles for P1. */
export const DURATION_S = quick ? 2 : 10;
export const WARM_UP_S = quick ? 1 : 3;
export const ROUNDS = 2;
export const CONNECTIONS = 32;
export const PROFILES = quick ? 1_000 : 10_000;
export const SMALL = 1_000;
export const LARGE = quick ? 10_000 : 100_000;

/** Where the run keeps its databases, caches and browser profiles; removed at the end. */
export const scratch = mkdtempSync(path.join(tmpdir(), 'lampstand-bench-'));

export interface Figure {
  id: string;
  label: string;
  value: number | null;
  unit: string;
  target: string;
  pass: boolean | null;
  note?: string;
  /** The measured numbers behind the figure, for scripts that read the JSON (scripts/scaling.mjs). */
  detail?: Record<string, number>;
}

export const figures: Figure[] = [];

export function report(figure: Figure): void {
  figures.push(figure);
  const value = figure.value === null ? 'not measured' : `${figure.value}${figure.unit}`;
  const verdict = figure.pass === null ? '' : figure.pass ? 'PASS' : 'MISS';
  console.log(
    `${figure.id.padEnd(4)} ${figure.label.padEnd(44)} ${value.padStart(14)}  target ${figure.target.padEnd(14)} ${verdict}${figure.note ? `  (${figure.note})` : ''}`,
  );
}

export const round = (value: number, digits = 2): number => Number(value.toFixed(digits));
