import { useApolloClient } from '@apollo/client/react';
import { readMeProfile, writeMeProfile } from '../../session/member-cache';
import type { UpdateProfileInput } from '../../gql/schema-types';
import { useUpdateProfileMutation } from './profile-editor.generated';

/**
 * Saves profile changes. The member every screen reads (`me`) shows them at once (optimistically)
 * and keeps what the API answers; a refused change rolls back on its own.
 */
export function useUpdateProfile() {
  const { cache } = useApolloClient();
  const [mutate, result] = useUpdateProfileMutation({
    update(cache, { data }) {
      if (data) writeMeProfile(cache, data.updateProfile);
    },
  });
  const updateProfile = (input: UpdateProfileInput) => {
    const changes = {
      ...(input.name != null && { name: input.name }),
      ...(input.bio != null && { bio: input.bio }),
      ...(input.theme != null && { theme: input.theme }),
      ...(input.layout != null && { layout: input.layout }),
      ...(input.button != null && { button: input.button }),
      ...(input.isPublic != null && { isPublic: input.isPublic }),
      ...(input.isActive != null && { isActive: input.isActive }),
    };
    // The changes over the profile as the cache holds it now, not as it was at the last render: a
    // username changed just before (same save) or an answer that arrived meanwhile is kept.
    const current = readMeProfile(cache);
    return mutate({
      variables: { input },
      optimisticResponse: current
        ? {
            __typename: 'Mutation',
            updateProfile: {
              ...current,
              ...changes,
              appearance: {
                ...current.appearance,
                ...(changes.theme && { theme: changes.theme }),
                ...(changes.layout && { layout: changes.layout }),
                ...(changes.button && { button: changes.button }),
              },
            },
          }
        : undefined,
    });
  };
  return [updateProfile, result] as const;
}
