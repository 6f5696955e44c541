// `node:http` required rather than imported. An ES import of it has Node build the module's ES
// exports, which reads its lazy `WebSocket`, `CloseEvent` and `MessageEvent` and so loads Node's
// whole fetch implementation (undici): ~20 ms of every start (docs/quality.md P9) for classes the
// server never uses. Requiring it reads only what is used.
import type * as NodeHttp from 'node:http';
import { createRequire } from 'node:module';

const http = createRequire(import.meta.url)('node:http') as typeof NodeHttp;

export const { createServer, IncomingMessage, STATUS_CODES } = http;
