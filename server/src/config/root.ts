import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: server/src/config/root.ts and server/dist/config/root.js both sit three levels below it. */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
