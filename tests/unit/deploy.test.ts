import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseEnv, parseExec, parseStages, splitRun } from '../../scripts/dockerfile-steps.mjs';
import { envSchema, loadConfig } from '../../server/src/config.js';

const root = path.resolve(import.meta.dirname, '../..');
const compose = readFileSync(path.join(root, 'docker/compose.yaml'), 'utf8');
const example = readFileSync(path.join(root, 'docker/.env.example'), 'utf8');

interface Service {
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test?: string[]; disable?: boolean };
  logging?: { driver: string; options?: Record<string, string> };
}
const { services } = parse(compose, { merge: true }) as { services: Record<string, Service> };

/** The example's settings, with a stand-in for every blank secret. */
const exampleValues = new Map(
  example
    .split('\n')
    .map((line) => /^([A-Z_]+)=(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, name = '', value = '']) => [
      name,
      value === '' && /SECRET|KEY|PASSWORD/.test(name) ? 'x'.repeat(48) : value,
    ]),
);

/** Compose's `${NAME}` and `${NAME:-default}`, as `docker compose` fills them from docker/.env. */
function interpolate(value: string): string {
  return value.replace(/\$\{([A-Z_]+)(?::-([^}]*))?\}/g, (_match, name: string, fallback?: string) => {
    const set = exampleValues.get(name);
    return set !== undefined && set !== '' ? set : (fallback ?? '');
  });
}

const APP_SERVICES = ['app-1', 'app-2', 'migrate'];

describe('docker/compose.yaml', () => {
  it('runs two app instances and a migration step they wait for', () => {
    for (const name of ['app-1', 'app-2']) {
      const dependsOn = services[name]?.depends_on as Record<string, { condition: string }> | undefined;
      expect(dependsOn?.migrate, name).toEqual({ condition: 'service_completed_successfully' });
    }
  });

  it.each(Object.keys(services))('gives %s a health check (or turns it off: a one-shot) and capped logs', (name) => {
    const service = services[name] ?? {};
    const { healthcheck } = service;
    expect(healthcheck, name).toBeDefined();
    if (healthcheck?.disable !== true) expect(healthcheck?.test?.[0], name).toBe('CMD');
    expect(service.logging?.options?.['max-size'], name).toMatch(/^\d+m$/);
    expect(Number(service.logging?.options?.['max-file']), name).toBeGreaterThan(0);
  });

  it('has Supabase Auth count its limits per client, by the address Caddy sets or the app names', () => {
    const auth = services.auth?.environment ?? {};
    expect(auth.GOTRUE_RATE_LIMIT_HEADER).toBe('X-Forwarded-For');
    expect(auth.GOTRUE_SECURITY_SB_FORWARDED_FOR_ENABLED).toBe('true');
    const caddyfile = readFileSync(path.join(root, 'docker/Caddyfile'), 'utf8');
    const publicSite = caddyfile.slice(0, caddyfile.indexOf('http://caddy {'));
    expect(publicSite.match(/header_up -Sb-Forwarded-For/g)).toHaveLength(2);
    expect(publicSite.match(/header_up X-Forwarded-For \{remote_host\}/g)).toHaveLength(2);
  });

  it.each(APP_SERVICES)(
    'gives %s every setting production requires, in hosted mode on PostgreSQL and Redis',
    (name) => {
      const environment = services[name]?.environment ?? {};
      const env = Object.fromEntries(Object.entries(environment).map(([key, value]) => [key, interpolate(value)]));
      const config = loadConfig(env);
      expect(config.env).toBe('production');
      expect(config.identity.mode).toBe('hosted');
      expect(config.database.type).toBe('postgres');
      expect(config.redisUrl).toBe('redis://redis:6379');
      expect(config.metricsPort).toBeDefined();
    },
  );

  it('takes every variable it uses from docker/.env.example', () => {
    const used = new Set([...compose.matchAll(/\$\{([A-Z_]+)/g)].map((match) => match[1]));
    for (const name of used) expect(exampleValues.has(name ?? ''), name).toBe(true);
  });
});

describe('docker/.env.example', () => {
  it('names every setting the app reads', () => {
    const settings = Object.keys(envSchema.shape);
    expect(settings.length).toBeGreaterThan(30);
    for (const setting of settings) expect(example, setting).toMatch(new RegExp(`\\b${setting}\\b`));
  });
});

describe('docker/Dockerfile', () => {
  it('starts the compiled server with the heap flags npm start and the bench use', () => {
    const dockerfile = readFileSync(path.join(root, 'docker/Dockerfile'), 'utf8');
    const { flags } = JSON.parse(readFileSync(path.join(root, 'server/node-flags.json'), 'utf8')) as {
      flags: string[];
    };
    const command = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]';
    expect(JSON.parse(command)).toEqual(['node', ...flags, 'server/dist/main.js']);
  });

  it('sets the environment npm start and the bench start the server with (glibc reads it at start)', () => {
    const dockerfile = readFileSync(path.join(root, 'docker/Dockerfile'), 'utf8');
    const { env } = JSON.parse(readFileSync(path.join(root, 'server/node-flags.json'), 'utf8')) as {
      env: Record<string, string>;
    };
    expect(Object.keys(env)).toContain('MALLOC_ARENA_MAX');
    for (const [name, value] of Object.entries(env))
      expect(dockerfile).toMatch(new RegExp(`^\\s+${name}=${value}( \\\\)?$`, 'm'));
  });

  it('is one image whose every step npm run check:image can perform, with no web package at run time', () => {
    const stages = parseStages(readFileSync(path.join(root, 'docker/Dockerfile'), 'utf8'));
    const known = ['WORKDIR', 'ENV', 'COPY', 'RUN', 'CMD', 'HEALTHCHECK', 'USER', 'EXPOSE', 'LABEL', 'ARG'];
    const names: string[] = [];
    for (const stage of stages) {
      expect(stage.image, stage.name).toMatch(/^node:24-/);
      for (const { keyword, flags, line } of stage.instructions) {
        expect(known, `line ${line}`).toContain(keyword);
        if (flags.from !== undefined) expect(names, `line ${line}`).toContain(flags.from);
      }
      names.push(stage.name);
    }
    const runs = stages.flatMap((stage) => stage.instructions.filter(({ keyword }) => keyword === 'RUN'));
    const commands = runs.flatMap(({ args }) => splitRun(args).map(({ command }) => command));
    // Omitting optional dependencies drops the native bindings of the bundler, argon2, sharp and resvg.
    for (const command of commands) expect(command).not.toMatch(/--omit=optional|--no-optional/);
    expect(commands.some((command) => /^npm ci\b/.test(command) && !command.includes('--omit'))).toBe(true);

    const runtime = stages.at(-1);
    const copies = runtime?.instructions.filter(({ keyword }) => keyword === 'COPY') ?? [];
    expect(copies.map(({ args }) => args).join('\n')).not.toMatch(/web\/node_modules|web\/src/);
    const fromDeps = copies.filter(({ flags }) => flags.from === 'deps').map(({ args }) => args.split(/\s+/)[0]);
    expect(fromDeps).toContain('/app/node_modules');
    const deps = stages.find((stage) => stage.name === 'deps');
    const install = deps?.instructions.find(({ keyword }) => keyword === 'RUN')?.args ?? '';
    expect(install).toMatch(/npm ci --omit=dev --workspace=server/);
    const cmd = runtime?.instructions.find(({ keyword }) => keyword === 'CMD');
    expect(parseExec(cmd?.args ?? '[]', 0).at(-1)).toBe('server/dist/main.js');
  });

  it('reads continuation lines, flags and ENV pairs as Docker does', () => {
    const [stage] = parseStages(
      'FROM node:24-slim AS build\n# a comment\nENV A=1 \\\n    B="two words"\nCOPY --from=x --chown=node:node /app/a b/\nRUN apt-get install -y python3 make && npm ci && chown -R node:node /app\n',
    );
    const [env, copy, run] = stage?.instructions ?? [];
    expect(parseEnv(env?.args ?? '')).toEqual({ A: '1', B: 'two words' });
    expect(copy).toMatchObject({ keyword: 'COPY', args: '/app/a b/', flags: { from: 'x', chown: 'node:node' } });
    expect(splitRun(run?.args ?? '').map(({ kind }) => kind)).toEqual(['packages', 'run', 'skip']);
    expect(splitRun('node -e "a && b"')).toHaveLength(1);
  });
});
