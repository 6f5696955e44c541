import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteCall } from '../route.js';

/** `GET /health` (contract §2.9). */
export function health(_request: FastifyRequest, _reply: FastifyReply, _call: RouteCall): Promise<unknown> {
  return Promise.resolve({
    version: 'lampstand-embedded',
    name: 'GoTrue',
    description: 'GoTrue is a user registration and authentication API',
  });
}

/** `GET /settings` (contract §2.9). */
export function settings(_request: FastifyRequest, _reply: FastifyReply, { context }: RouteCall): Promise<unknown> {
  return Promise.resolve({
    external: { anonymous_users: false, email: true, phone: false },
    disable_signup: context.settings.disableSignup,
    mailer_autoconfirm: context.settings.autoconfirm,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
    saml_private_key_next_configured: false,
    passkeys_enabled: false,
  });
}

/** `GET /.well-known/jwks.json` (contract §2.9). */
export function jwks(_request: FastifyRequest, reply: FastifyReply, { context }: RouteCall): Promise<unknown> {
  void reply.header('cache-control', 'public, max-age=600');
  return Promise.resolve(context.keys.jwks);
}
