import { isIP } from 'node:net';
import { z } from 'zod';

/** The parsed values of one section's variables. */
export type SectionEnv<Shape extends z.ZodRawShape> = z.infer<z.ZodObject<Shape>>;

/** What every section's settings may depend on beyond its own variables. */
export interface Shared {
  nodeEnv: 'development' | 'production' | 'test';
  /** PUBLIC_URL, or the local address when it is unset; no trailing slash. */
  publicUrl: string;
  /** SUPABASE_URL is set: accounts live in hosted Supabase Auth, not in this process. */
  hosted: boolean;
  /** Problems found across variables; every one is reported together. */
  problems: string[];
}

export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'must be true or false' })
  .transform((value) => ['true', '1', 'yes', 'on'].includes(value));

export const seconds = z.coerce.number().int().min(0);
export const positive = z.coerce.number().int().positive();
export const url = z.url({ protocol: /^https?$/ });
export const list = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0),
);
/** Comma-separated web origins (`https://church.example`), each kept as its canonical origin. */
export const origins = list.transform((items, context) => {
  const canonical: string[] = [];
  for (const item of items) {
    const parsed = URL.canParse(item) ? new URL(item) : null;
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== item.replace(/\/+$/, '')) {
      context.addIssue({ code: 'custom', message: `must be origins like https://example.org (not ${item})` });
      return z.NEVER;
    }
    canonical.push(parsed.origin);
  }
  return canonical;
});

/** proxy-addr's names for address ranges, accepted by Fastify's `trustProxy` beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Whether `value` is an IP address, a CIDR (`10.0.0.0/8`, `fd00::/8`) or one of proxy-addr's range names. */
function isProxyAddress(value: string): boolean {
  if (PROXY_RANGE_NAMES.has(value)) return true;
  const [address = '', prefix, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (version === 4 && isIP(prefix) === 4) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: a boolean (`true`, `false`, `yes`, …), a number of proxy hops in front of the
 * server (`1`: believe the nearest proxy only), or a comma-separated list of proxy addresses/CIDRs.
 */
export const trustProxy = z.string().transform((value, context): boolean | number | string[] => {
  const word = value.trim().toLowerCase();
  if (/^\d+$/.test(word)) return Number(word) === 0 ? false : Number(word);
  const asBool = bool.safeParse(word);
  if (asBool.success) return asBool.data;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  const wrong = items.filter((item) => !isProxyAddress(item));
  if (items.length === 0 || wrong.length > 0) {
    context.addIssue({
      code: 'custom',
      message: `must be true, false, a number of proxy hops, or comma-separated IP addresses/CIDRs (not ${wrong.join(', ') || 'empty'})`,
    });
    return z.NEVER;
  }
  return items;
});
