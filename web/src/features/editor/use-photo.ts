import type { ApolloCache } from '@apollo/client';
import { useState } from 'react';
import { useAuth } from '../../session/AuthProvider';
import { withMeProfile } from '../../session/member-cache';
import { OwnPhotoDocument, useOwnPhotoQuery, useRemovePhotoMutation } from './photo-picker.generated';

/** Why the server refused a photo (server/src/photos/photo.pipeline.ts), or why it never got it. */
export type PhotoProblem =
  | 'empty'
  | 'too_large'
  | 'not_an_image'
  | 'unsupported_format'
  | 'too_many_pixels'
  | 'too_heavy'
  | 'too_many_uploads'
  | 'busy'
  | 'signed_out'
  | 'network';

export class PhotoUploadError extends Error {
  constructor(readonly problem: PhotoProblem) {
    super(problem);
    this.name = 'PhotoUploadError';
  }
}

const SERVER_REASONS: ReadonlySet<string> = new Set([
  'empty',
  'too_large',
  'not_an_image',
  'unsupported_format',
  'too_many_pixels',
  'too_heavy',
  'too_many_uploads',
  'busy',
]);

function problemOf(status: number, body: unknown): PhotoProblem {
  if (status === 401) return 'signed_out';
  const reason = typeof body === 'object' && body !== null && 'reason' in body ? body.reason : undefined;
  return typeof reason === 'string' && SERVER_REASONS.has(reason) ? (reason as PhotoProblem) : 'network';
}

/** Puts the member's photo address where the editor, its preview and the session read it. */
function writePhotoUrl(cache: ApolloCache, photoUrl: string | null): void {
  cache.updateQuery({ query: OwnPhotoDocument }, (data) => withMeProfile(data, { photoUrl }));
}

/**
 * The member's photo: its address, uploading a new one (`PUT /api/photo`, the file as the body)
 * and removing it. Both put the new address in the cache, so the editor and its preview follow.
 */
export function usePhoto() {
  const { client } = useAuth();
  const query = useOwnPhotoQuery({ fetchPolicy: 'cache-and-network' });
  const [busy, setBusy] = useState(false);
  const [removePhoto] = useRemovePhotoMutation({
    update(cache) {
      writePhotoUrl(cache, null);
    },
  });

  async function send(file: Blob): Promise<Response> {
    const token = client.getSnapshot().session?.accessToken;
    if (!token) throw new PhotoUploadError('signed_out');
    return fetch('/api/photo', {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': file.type || 'application/octet-stream' },
      body: file,
    });
  }

  async function upload(file: Blob): Promise<void> {
    setBusy(true);
    try {
      let response = await send(file).catch(() => {
        throw new PhotoUploadError('network');
      });
      // An access token that expired meanwhile: renew the session once and try again.
      if (response.status === 401 && (await client.renew())) response = await send(file);
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok) throw new PhotoUploadError(problemOf(response.status, body));
      const photoUrl =
        typeof body === 'object' && body !== null && 'photoUrl' in body && typeof body.photoUrl === 'string'
          ? body.photoUrl
          : null;
      writePhotoUrl(client.apollo.cache, photoUrl);
    } finally {
      setBusy(false);
    }
  }

  async function remove(): Promise<void> {
    setBusy(true);
    try {
      await removePhoto();
    } finally {
      setBusy(false);
    }
  }

  const loaded = query.dataState === 'complete';
  return {
    photoUrl: loaded ? (query.data.me?.profile.photoUrl ?? null) : null,
    loading: !loaded && query.loading,
    error: loaded ? undefined : query.error,
    refetch: () => void query.refetch(),
    busy,
    upload,
    remove,
  };
}

export type OwnPhoto = ReturnType<typeof usePhoto>;
