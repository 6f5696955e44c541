import type { FeatureModule } from '../kernel/feature-module.js';
import { ByteCache } from '../work/byte-cache.js';
import { windowLimiter } from '../work/rate-limit.js';
import { registerShareRoutes } from './share.routes.js';
import { ShareService } from './share.service.js';

declare module '../kernel/feature-module.js' {
  interface Services {
    shares: ShareService;
  }
}

/** Cards and QR codes of pages and verses, drawn for anyone. */
export const sharingModule: FeatureModule = {
  name: 'sharing',
  build: ({ config, heavy, loaders }, { profiles, verses, photos, identity }) => ({
    shares: new ShareService(
      profiles,
      verses,
      loaders,
      config.publicUrl,
      {
        capacity: heavy.renders,
        pool: heavy.pool,
        cache: new ByteCache(config.heavy.cacheMb * 1024 * 1024, identity.redis),
        renders: windowLimiter('renders', config.heavy.rendersPerMinute, 60, identity.redis),
      },
      photos,
    ),
  }),
  routes: (server, { shares }) => {
    registerShareRoutes(server, shares);
  },
};
