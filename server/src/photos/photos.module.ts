import { resolver } from '../kernel/feature-module.js';
import type { FeatureModule } from '../kernel/feature-module.js';
import { windowLimiter } from '../work/rate-limit.js';
import { publishPageChanges } from '../profiles/page-changes.js';
import { photoEntities } from './photo.entity.js';
import { photoLoaderFactory } from './photo.loaders.js';
import { PhotoResolver, PublicPhotoResolver } from './photo.resolver.js';
import { registerPhotoRoutes } from './photo.routes.js';
import { PhotoService } from './photo.service.js';

declare module '../kernel/feature-module.js' {
  interface Services {
    photos: PhotoService;
  }
}

/** Members' photos: uploads, their processing, and the addresses they are served at. */
export const photosModule: FeatureModule = {
  name: 'photos',
  entities: photoEntities,
  build: ({ config, dataSource, heavy, live }, { identity }) => ({
    photos: new PhotoService(
      dataSource,
      heavy.uploads,
      windowLimiter('photo-uploads', config.heavy.uploadsPerHour, 3600, identity.redis),
      publishPageChanges(live),
    ),
  }),
  resolvers: [
    resolver(PhotoResolver, ({ photos }, { config }) => new PhotoResolver(photos, config.publicUrl)),
    resolver(PublicPhotoResolver, (_services, { config }) => new PublicPhotoResolver(config.publicUrl)),
  ],
  loaders: (dataSource) => {
    const photo = photoLoaderFactory(dataSource);
    return [
      {
        names: ['photoVersionByUid'],
        make: () => ({ photoVersionByUid: photo() }),
        members: { photoVersionByUid: 'key' },
      },
    ];
  },
  routes: (server, { photos }, { config, authenticate }) => {
    registerPhotoRoutes(server, { photos, authenticate, publicUrl: config.publicUrl });
  },
};
