import type { FeatureModule } from '../kernel/feature-module.js';
import { registerEmbedRoutes } from './embed-routes.js';

/**
 * A member's page and the verse of the day on other sites: oEmbed (`/oembed`) and the framable
 * views (`/embed/@username`, `/embed/verse`). Routes only: it reads what the pages read.
 */
export const embedsModule: FeatureModule = {
  name: 'embeds',
  routes: (server, { profiles, verses }, kernel) => {
    registerEmbedRoutes(server, {
      profiles,
      verses,
      publicUrl: kernel.config.publicUrl,
      loaders: kernel.loaders,
      answers: server.publicAnswers,
      onHit: () => {
        kernel.metrics.cachedAnswers.inc();
      },
    });
  },
};
