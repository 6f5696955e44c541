// `npm run lint:docker` (part of `npm run check`): the Dockerfile checked by dockerfile-utils,
// as there is no Docker engine to build it here. Any problem it reports fails the check.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate, ValidationSeverity } from 'dockerfile-utils';

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docker/Dockerfile');
const problems = validate(readFileSync(file, 'utf8'));
for (const problem of problems) {
  const severity = problem.severity === ValidationSeverity.ERROR ? 'error' : 'warning';
  console.error(`docker/Dockerfile:${problem.range.start.line + 1}: ${severity}: ${problem.message}`);
}
if (problems.length > 0) process.exit(1);
console.log('docker/Dockerfile: no problems');
