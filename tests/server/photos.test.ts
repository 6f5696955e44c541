import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRecord } from '../../server/src/members/user.entity.js';
import { PhotoRecord } from '../../server/src/photos/photo.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { jpegWithExif, pngBomb, pngImage } from '../support/images.js';
import type { SignedUpMember } from '../support/members.js';
import { firstError, signUpMember } from '../support/members.js';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp({ AUTH_RATE_LIMIT_OTP: '1000' });
});
afterAll(async () => {
  await api.close();
});

const OWN = `{ me { profile { photoUrl } } }`;
const PUBLIC = `query ($username: String!) { profile(username: $username) { photoUrl } }`;
const REMOVE = `mutation { removePhoto { username photoUrl } }`;

function upload(body: Buffer, token?: string, contentType = 'image/png'): Promise<Response> {
  return fetch(`${api.url}/api/photo`, {
    method: 'PUT',
    headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: new Uint8Array(body),
  });
}

async function uploaded(member: SignedUpMember, body: Buffer, contentType?: string): Promise<string> {
  const response = await upload(body, member.session.accessToken, contentType);
  expect(response.status).toBe(200);
  const { photoUrl } = (await response.json()) as { photoUrl: string };
  return photoUrl;
}

async function ownPhotoUrl(member: SignedUpMember): Promise<string | null | undefined> {
  const response = await api.graphql<{ me: { profile: { photoUrl: string | null } } }>(OWN, undefined, {
    token: member.session.accessToken,
  });
  expect(response.errors).toBeUndefined();
  return response.data?.me.profile.photoUrl;
}

async function publicPhotoUrl(member: SignedUpMember): Promise<string | null | undefined> {
  const response = await api.graphql<{ profile: { photoUrl: string | null } | null }>(PUBLIC, {
    username: member.member.profile.username,
  });
  return response.data?.profile?.photoUrl;
}

async function storedPhotos(member: SignedUpMember): Promise<number> {
  return api.dataSource.getRepository(PhotoRecord).countBy({ uid: member.member.user.uid });
}

describe('profile photos', () => {
  it('start as none: the page shows the initial', async () => {
    const member = await signUpMember(api);
    expect(await ownPhotoUrl(member)).toBeNull();
    expect(await publicPhotoUrl(member)).toBeNull();
  });

  it('are uploaded by their owner and served as a 256 px WebP cached for a year', async () => {
    const member = await signUpMember(api);
    const photoUrl = await uploaded(member, await pngImage(640, 480));
    expect(photoUrl).toMatch(new RegExp(`^${api.url}/p/${member.member.user.uid}/[A-Za-z0-9_-]{16}\\.webp$`));
    expect(await ownPhotoUrl(member)).toBe(photoUrl);
    expect(await publicPhotoUrl(member)).toBe(photoUrl);

    const served = await fetch(photoUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const image = Buffer.from(await served.arrayBuffer());
    expect(await sharp(image).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });
  });

  it('are no longer served once an operator hides the page', async () => {
    const member = await signUpMember(api);
    const photoUrl = await uploaded(member, await pngImage(300, 300));
    expect((await fetch(photoUrl)).status).toBe(200);
    await api.dataSource
      .getRepository(UserRecord)
      .update({ uid: member.member.user.uid }, { hiddenReason: 'An abusive photo.', hiddenAt: new Date() });
    expect((await fetch(photoUrl)).status).toBe(404);
  });

  it('get a new address when the photo changes, and the old one is gone', async () => {
    const member = await signUpMember(api);
    const first = await uploaded(member, await pngImage(400, 400));
    const second = await uploaded(member, await jpegWithExif(), 'image/jpeg');
    expect(second).not.toBe(first);
    expect(await publicPhotoUrl(member)).toBe(second);
    expect((await fetch(first)).status).toBe(404);
    expect((await fetch(second)).status).toBe(200);
    expect(await storedPhotos(member)).toBe(1);
  });

  it('need a signed-in member', async () => {
    const response = await upload(await pngImage(), undefined);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    const forged = await upload(await pngImage(), 'not-a-token');
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it.each([
    [
      'a file that is not an image',
      () => Promise.resolve(Buffer.from('Dear Theophilus, this letter is not a photo.')),
      400,
      'not_an_image',
    ],
    ['a decompression bomb', () => Promise.resolve(pngBomb(8000)), 400, 'too_many_pixels'],
    [
      'a file over 5 MB',
      async () => Buffer.concat([await pngImage(64, 64), Buffer.alloc(5 * 1024 * 1024)]),
      413,
      'too_large',
    ],
    ['an empty body', () => Promise.resolve(Buffer.alloc(0)), 400, 'empty'],
  ])('refuse %s with a coded error and keep the photo there was', async (_name, make, status, reason) => {
    const member = await signUpMember(api);
    const before = await uploaded(member, await pngImage(300, 200));
    const response = await upload(await make(), member.session.accessToken);
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'photo', reason });
    expect(await ownPhotoUrl(member)).toBe(before);
    expect(await storedPhotos(member)).toBe(1);
  });

  it('are removed by their owner only', async () => {
    const owner = await signUpMember(api);
    const other = await signUpMember(api);
    const photoUrl = await uploaded(owner, await pngImage());
    // Another member's removePhoto is about their own page and leaves this one alone.
    const theirs = await api.graphql(REMOVE, undefined, { token: other.session.accessToken });
    expect(theirs.errors).toBeUndefined();
    expect(await publicPhotoUrl(owner)).toBe(photoUrl);

    const anonymous = await api.graphql(REMOVE);
    expect(firstError(anonymous).code).toBe('UNAUTHENTICATED');

    const removed = await api.graphql<{ removePhoto: { photoUrl: string | null } }>(REMOVE, undefined, {
      token: owner.session.accessToken,
    });
    expect(removed.errors).toBeUndefined();
    expect(removed.data?.removePhoto.photoUrl).toBeNull();
    expect(await publicPhotoUrl(owner)).toBeNull();
    expect((await fetch(photoUrl)).status).toBe(404);
    expect(await storedPhotos(owner)).toBe(0);
  });

  it('answer 404 for addresses that name no photo', async () => {
    const member = await signUpMember(api);
    for (const path of [
      `/p/${member.member.user.uid}/AAAAAAAAAAAAAAAA.webp`,
      `/p/not-a-uid/AAAAAAAAAAAAAAAA.webp`,
      `/p/${member.member.user.uid}/AAAAAAAAAAAAAAAA.png`,
    ]) {
      expect((await fetch(`${api.url}${path}`)).status).toBe(404);
    }
  });
});
