import type { FastifyInstance } from 'fastify';
import type { StripeSyncService } from './stripe-sync.service.js';
import type { StripeClient } from './stripe.client.js';
import { WebhookSignatureError } from './stripe.client.js';

/**
 * `POST /webhooks/stripe`. In its own plugin scope the body is kept as the exact bytes received,
 * whatever the content type, because Stripe's signature covers those bytes; the rest of the app
 * parses JSON as usual. Answers: 400 for a bad signature (nothing written), 200 once the event is
 * applied or known, 500 when applying failed (nothing recorded, so Stripe retries), 503 when
 * billing is off.
 */
export function registerStripeWebhook(
  app: FastifyInstance,
  stripe: StripeClient | null,
  sync: StripeSyncService,
): void {
  void app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, parsed) => {
      parsed(null, body);
    });
    scope.post('/webhooks/stripe', async (request, reply) => {
      if (!stripe) return reply.code(503).send({ error: 'billing_not_configured' });
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      let event;
      try {
        event = stripe.verifyEvent(body, typeof signature === 'string' ? signature : undefined);
      } catch (error) {
        if (!(error instanceof WebhookSignatureError)) throw error;
        request.log.warn({ reason: error.message }, 'stripe webhook refused: bad signature');
        return reply.code(400).send({ error: 'invalid_signature' });
      }
      try {
        const outcome = await sync.handleEvent(event);
        return await reply.code(200).send({ received: true, duplicate: outcome.duplicate });
      } catch (error) {
        request.log.error(
          { err: error, eventId: event.id, type: event.type },
          'stripe webhook failed; Stripe will retry',
        );
        return reply.code(500).send({ error: 'processing_failed' });
      }
    });
    done();
  });
}
