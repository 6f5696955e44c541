// The baselines the figures are measured against, each a bare server in its own process:
//   sqlite <file> <port>: node:http + graphql-js (documents parsed and validated once) + a
//     prepared better-sqlite3 statement, answering the profile query byte for byte as Lampstand does;
//   postgres <url> <port>: the same over PostgreSQL, with a named (prepared) statement on a pg pool;
//   hash <port>: one argon2id verification per request, at the embedded login's parameters.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hash, verify } from '@node-rs/argon2';
import Database from 'better-sqlite3';
import { buildSchema, execute, parse, validate } from 'graphql';
import type { DocumentNode } from 'graphql';
import pg from 'pg';
import { ARGON2_OPTIONS } from '../server/src/identity/embedded/passwords.js';

const [kind, ...rest] = process.argv.slice(2);
// Stopped by SIGTERM: exiting on it (rather than being killed) lets `--cpu-prof` write its profile.
process.once('SIGTERM', () => process.exit(0));

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

/** A profile row as both databases give it (PostgreSQL's bigint and boolean arrive as text and boolean). */
interface ProfileRow {
  username: string;
  name: string;
  joined: number | string;
  verse_pinned: number | boolean;
}

type FindProfile = (username: string) => ProfileRow | undefined | Promise<ProfileRow | undefined>;

/** node:http + graphql-js answering the profile query from `find`, documents parsed and validated once. */
function serveProfiles(find: FindProfile, port: number): void {
  const schema = buildSchema(`
    scalar DateTimeISO
    type PublicProfile { username: String! name: String! joined: DateTimeISO! versePinned: Boolean! }
    type Query { profile(username: String!): PublicProfile }
  `);
  const rootValue = {
    profile: async ({ username }: { username: string }) => {
      const row = await find(username.toLowerCase());
      return row
        ? {
            username: row.username,
            name: row.name,
            joined: new Date(Number(row.joined)).toISOString(),
            versePinned: row.verse_pinned === 1 || row.verse_pinned === true,
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
  }, port);
}

const PROFILE_SQL =
  'SELECT username, name, joined, verse_pinned FROM profiles WHERE username = %s AND is_active AND is_public';

if (kind === 'sqlite') {
  const [file = '', port = '0'] = rest;
  const db = new Database(file, { readonly: true });
  const statement = db.prepare<[string], ProfileRow>(PROFILE_SQL.replace('%s', '?'));
  serveProfiles((username) => statement.get(username), Number(port));
} else if (kind === 'postgres') {
  const [url = '', port = '0'] = rest;
  // The same pool size as the server's (server/src/db/data-source.ts).
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const text = PROFILE_SQL.replace('%s', '$1');
  serveProfiles(
    async (username) => (await pool.query<ProfileRow>({ name: 'profile', text, values: [username] })).rows[0],
    Number(port),
  );
} else if (kind === 'hash') {
  const [port = '0'] = rest;
  const stored = await hash('correct horse battery staple', ARGON2_OPTIONS);
  listen(async (request, response) => {
    const { password } = JSON.parse(await readBody(request)) as { password: string };
    send(response, JSON.stringify({ ok: await verify(stored, password) }));
  }, Number(port));
} else {
  console.error('usage: floor-server.ts sqlite <file> <port> | postgres <url> <port> | hash <port>');
  process.exit(2);
}
