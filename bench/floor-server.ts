// The baselines the figures are measured against, each a bare server in its own process:
//   sqlite <file> <port>: node:http + graphql-js (documents parsed and validated once) + a
//     prepared better-sqlite3 statement, answering the profile query byte for byte as Lampstand does;
//   hash <port>: one argon2id verification per request, at the embedded login's parameters.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hash, verify } from '@node-rs/argon2';
import Database from 'better-sqlite3';
import { buildSchema, execute, parse, validate } from 'graphql';
import type { DocumentNode } from 'graphql';
import { ARGON2_OPTIONS } from '../server/src/identity/embedded/passwords.js';

const [kind, ...rest] = process.argv.slice(2);

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    request.on('error', reject);
  });
}

function send(response: ServerResponse, body: string): void {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
}

function listen(handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>, port: number): void {
  createServer((request, response) => {
    handler(request, response).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  }).listen(port, '127.0.0.1', () => {
    process.send?.('ready');
  });
}

if (kind === 'sqlite') {
  const [file = '', port = '0'] = rest;
  const db = new Database(file, { readonly: true });
  const statement = db.prepare<[string], { username: string; name: string; joined: number; verse_pinned: number }>(
    'SELECT username, name, joined, verse_pinned FROM profiles WHERE username = ? AND is_active = 1 AND is_public = 1',
  );
  const schema = buildSchema(`
    scalar DateTimeISO
    type PublicProfile { username: String! name: String! joined: DateTimeISO! versePinned: Boolean! }
    type Query { profile(username: String!): PublicProfile }
  `);
  const rootValue = {
    profile: ({ username }: { username: string }) => {
      const row = statement.get(username.toLowerCase());
      return row
        ? {
            username: row.username,
            name: row.name,
            joined: new Date(row.joined).toISOString(),
            versePinned: row.verse_pinned === 1,
          }
        : null;
    },
  };
  const documents = new Map<string, DocumentNode>();
  listen(async (request, response) => {
    const { query, variables } = JSON.parse(await readBody(request)) as {
      query: string;
      variables?: Record<string, unknown>;
    };
    let document = documents.get(query);
    if (!document) {
      document = parse(query);
      if (validate(schema, document).length > 0) throw new Error('invalid query');
      documents.set(query, document);
    }
    const result = await execute({ schema, document, rootValue, variableValues: variables });
    // Apollo ends its JSON with a newline; the floor answers the same bytes.
    send(response, `${JSON.stringify(result)}\n`);
  }, Number(port));
} else if (kind === 'hash') {
  const [port = '0'] = rest;
  const stored = await hash('correct horse battery staple', ARGON2_OPTIONS);
  listen(async (request, response) => {
    const { password } = JSON.parse(await readBody(request)) as { password: string };
    send(response, JSON.stringify({ ok: await verify(stored, password) }));
  }, Number(port));
} else {
  console.error('usage: floor-server.ts sqlite <file> <port> | hash <port>');
  process.exit(2);
}
