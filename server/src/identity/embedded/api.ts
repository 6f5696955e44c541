import type { FastifyInstance } from 'fastify';
import type { IdentityContext } from './context.js';
import { limitByAddress } from './rate-limits.js';
import { authenticate, clientInfo, requireAdmin, requireAssurance } from './request.js';
import type { IdentityRoute } from './route.js';
import { adminGetUser, adminUpdateUser, createUser, deleteUser, listUsers } from './routes/admin.js';
import { adminDeleteFactor, adminListFactors } from './routes/admin-factors.js';
import { challengeFactor, enrollFactor, unenrollFactor, verifyFactor } from './routes/factors.js';
import { generateLink } from './routes/generate-link.js';
import { invite } from './routes/invite.js';
import { health, jwks, settings } from './routes/meta.js';
import { otp, resend } from './routes/otp.js';
import { passkeyOptions, passkeyVerify } from './routes/passkeys.js';
import { reauthenticate } from './routes/reauthenticate.js';
import { generateRecoveryCodes, verifyRecoveryCode } from './routes/recovery-codes.js';
import { signup } from './routes/signup.js';
import { token } from './routes/token.js';
import { getUser, logout, updateUser } from './routes/user.js';
import { recover, verifyGet, verifyPost } from './routes/verify.js';

/**
 * Every endpoint of the embedded identity service, with its guard, the assurance a `user` route
 * needs (`aal2` once the member has a verified factor, unless `partial`) and rate-limit bucket, in one
 * table (as Supabase Auth's internal/api/api.go lists its router). Handlers neither authenticate
 * nor count requests themselves: `mountRoutes` does both, in that order, before calling them.
 */
export const identityRoutes: readonly IdentityRoute[] = [
  { method: 'GET', path: '/health', guard: 'none', handler: health },
  { method: 'GET', path: '/settings', guard: 'none', handler: settings },
  { method: 'GET', path: '/.well-known/jwks.json', guard: 'none', handler: jwks },
  { method: 'POST', path: '/signup', guard: 'none', limit: 'signup', handler: signup },
  { method: 'POST', path: '/token', guard: 'none', limit: 'token', handler: token },
  { method: 'POST', path: '/recover', guard: 'none', limit: 'recover', handler: recover },
  { method: 'GET', path: '/verify', guard: 'none', limit: 'verify', handler: verifyGet },
  { method: 'POST', path: '/verify', guard: 'none', limit: 'verify', handler: verifyPost },
  { method: 'POST', path: '/otp', guard: 'none', limit: 'otp', handler: otp },
  { method: 'POST', path: '/resend', guard: 'none', limit: 'otp', handler: resend },
  { method: 'GET', path: '/reauthenticate', guard: 'user', assurance: 'aal2', limit: 'user', handler: reauthenticate },
  { method: 'POST', path: '/invite', guard: 'admin', handler: invite },
  // `partial`: supabase-js's mfa.listFactors and getAuthenticatorAssuranceLevel read the factors here.
  { method: 'GET', path: '/user', guard: 'user', assurance: 'partial', handler: getUser },
  { method: 'PUT', path: '/user', guard: 'user', assurance: 'aal2', limit: 'user', handler: updateUser },
  { method: 'POST', path: '/logout', guard: 'user', assurance: 'partial', handler: logout },
  { method: 'POST', path: '/factors', guard: 'user', assurance: 'aal2', handler: enrollFactor },
  // Extension (not in Supabase Auth): recovery codes, which stand in for a lost second factor.
  { method: 'POST', path: '/factors/recovery', guard: 'user', assurance: 'aal2', handler: generateRecoveryCodes },
  {
    method: 'POST',
    path: '/factors/recovery/verify',
    guard: 'user',
    assurance: 'partial',
    limit: 'factorVerify',
    handler: verifyRecoveryCode,
  },
  {
    method: 'POST',
    path: '/factors/:factorId/challenge',
    guard: 'user',
    assurance: 'partial',
    limit: 'factorChallenge',
    handler: challengeFactor,
  },
  {
    method: 'POST',
    path: '/factors/:factorId/verify',
    guard: 'user',
    assurance: 'partial',
    limit: 'factorVerify',
    handler: verifyFactor,
  },
  { method: 'DELETE', path: '/factors/:factorId', guard: 'user', assurance: 'aal2', handler: unenrollFactor },
  // Extension (not in Supabase Auth's factor API): sign-in with a passkey, as supabase-js calls it.
  { method: 'POST', path: '/passkeys/authentication/options', guard: 'none', limit: 'token', handler: passkeyOptions },
  { method: 'POST', path: '/passkeys/authentication/verify', guard: 'none', limit: 'token', handler: passkeyVerify },
  { method: 'GET', path: '/admin/users', guard: 'admin', handler: listUsers },
  { method: 'POST', path: '/admin/users', guard: 'admin', handler: createUser },
  { method: 'GET', path: '/admin/users/:id', guard: 'admin', handler: adminGetUser },
  { method: 'PUT', path: '/admin/users/:id', guard: 'admin', handler: adminUpdateUser },
  { method: 'DELETE', path: '/admin/users/:id', guard: 'admin', handler: deleteUser },
  { method: 'GET', path: '/admin/users/:id/factors', guard: 'admin', handler: adminListFactors },
  { method: 'DELETE', path: '/admin/users/:id/factors/:factorId', guard: 'admin', handler: adminDeleteFactor },
  { method: 'POST', path: '/admin/generate_link', guard: 'admin', handler: generateLink },
];

/** Registers each route of the table on `app`: its guard, then its rate limit, then its handler. */
export function mountRoutes(app: FastifyInstance, context: IdentityContext, routes = identityRoutes): void {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.path,
      handler: async (request, reply) => {
        const auth = route.guard === 'user' ? await authenticate(request, context) : null;
        if (auth && route.guard === 'user') requireAssurance(auth, route.assurance);
        if (route.guard === 'admin') await requireAdmin(request, context);
        const client = await clientInfo(request, context);
        if (route.limit !== undefined) await limitByAddress(context.limits[route.limit], client.ip);
        if (route.guard !== 'user') return route.handler(request, reply, { context, client });
        if (!auth) throw new Error(`${route.path}: the user guard did not run`);
        return route.handler(request, reply, { context, client, auth });
      },
    });
  }
}
