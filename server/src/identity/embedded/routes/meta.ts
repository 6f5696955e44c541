import type { FastifyInstance } from 'fastify';
import type { IdentityContext } from '../context.js';

/** `GET /health`, `GET /settings` and `GET /.well-known/jwks.json` (contract §2.9); no authentication. */
export function registerMetaRoutes(app: FastifyInstance, context: IdentityContext): void {
  app.get('/health', () =>
    Promise.resolve({
      version: 'lampstand-embedded',
      name: 'GoTrue',
      description: 'GoTrue is a user registration and authentication API',
    }),
  );

  app.get('/settings', () =>
    Promise.resolve({
      external: { anonymous_users: false, email: true, phone: false },
      disable_signup: context.settings.disableSignup,
      mailer_autoconfirm: context.settings.autoconfirm,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
      saml_private_key_next_configured: false,
      passkeys_enabled: false,
    }),
  );

  app.get('/.well-known/jwks.json', async (_request, reply) => {
    void reply.header('cache-control', 'public, max-age=600');
    return context.keys.jwks;
  });
}
