// Makes Supabase's two API keys from the JWT secret: `node docker/make-keys.mjs <JWT_SECRET>`
// prints SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY lines for docker/.env. They are HS256
// tokens whose `role` claim is `anon` or `service_role`, as the Supabase CLI makes them.
import { createHmac } from 'node:crypto';

const secret = process.argv[2] ?? process.env.JWT_SECRET;
if (!secret || secret.length < 32) {
  console.error('usage: node docker/make-keys.mjs <JWT_SECRET of at least 32 characters>');
  process.exit(2);
}

const base64url = (value) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const TEN_YEARS_S = 10 * 365 * 24 * 60 * 60;

function key(role) {
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ iss: 'supabase', role, iat: now, exp: now + TEN_YEARS_S })}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

console.log(`SUPABASE_ANON_KEY=${key('anon')}`);
console.log(`SUPABASE_SERVICE_ROLE_KEY=${key('service_role')}`);
