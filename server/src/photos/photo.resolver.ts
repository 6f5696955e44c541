import { Authorized, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { CurrentUser } from '../graphql/auth.js';
import type { AuthUser, Context } from '../graphql/context.js';
import { toProfile } from '../profiles/profile.mappers.js';
import { Profile, PublicProfile } from '../profiles/profile.types.js';
import type { PhotoService } from './photo.service.js';
import { photoPath } from './photo.service.js';

async function photoUrl(publicUrl: string, uid: string, { loaders }: Context): Promise<string | null> {
  const version = await loaders.photoVersionByUid.load(uid);
  return version === null ? null : `${publicUrl}${photoPath(uid, version)}`;
}

/** A member's own photo: its address, and taking it away (uploads are `PUT /api/photo`, see photo.routes.ts). */
@Resolver(() => Profile)
export class PhotoResolver {
  constructor(
    private readonly photos: PhotoService,
    private readonly publicUrl: string,
  ) {}

  @Authorized()
  @Mutation(() => Profile, { description: 'Takes your photo off your page; it shows your initial again.' })
  async removePhoto(@CurrentUser() actor: AuthUser): Promise<Profile> {
    return toProfile(await this.photos.remove(actor));
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'Your photo: a 256 px square WebP whose address changes with the photo; null without one. Upload with `PUT /api/photo`.',
  })
  photoUrl(@Root() profile: Profile, @Ctx() context: Context): Promise<string | null> {
    return photoUrl(this.publicUrl, profile.uid, context);
  }
}

/** The photo visitors see on a public page. */
@Resolver(() => PublicProfile)
export class PublicPhotoResolver {
  constructor(private readonly publicUrl: string) {}

  @FieldResolver(() => String, {
    nullable: true,
    description:
      "The member's photo: a 256 px square WebP, cacheable for a year (the address changes with the photo); null without one.",
  })
  photoUrl(@Root() profile: PublicProfile, @Ctx() context: Context): Promise<string | null> {
    return photoUrl(this.publicUrl, profile.uid, context);
  }
}
