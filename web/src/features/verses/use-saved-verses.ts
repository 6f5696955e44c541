import type { ApolloCache } from '@apollo/client';
import type { Translation, VerseMailInput } from '../../gql/schema-types';
import { writeMeProfile } from '../../session/member-cache';
import {
  SavedVersesPageDocument,
  useSaveVerseMutation,
  useSavedVersesPageQuery,
  useShowSavedVerseMutation,
  useSubscribeVerseMailMutation,
  useUnsaveVerseMutation,
  useUnsubscribeVerseMailMutation,
} from './saved-verses.generated';
import type { VerseMail_SettingsFragment } from './saved-verses.generated';

/**
 * The member's saved verses and morning mail, with what changes them. Saving and removing read the
 * list again (its order is the server's); the mail setting and a shown verse are written into the
 * cache from the answers.
 */
export function useSavedVerses(translation: Translation) {
  const variables = { translation };
  const query = useSavedVersesPageQuery({ variables, fetchPolicy: 'cache-and-network' });
  const refetch = { refetchQueries: [{ query: SavedVersesPageDocument, variables }], awaitRefetchQueries: true };
  const [saveMutation] = useSaveVerseMutation(refetch);
  const [unsaveMutation] = useUnsaveVerseMutation(refetch);
  const [showMutation] = useShowSavedVerseMutation({
    update(cache, { data }) {
      if (data) writeMeProfile(cache, data.pinVerse);
    },
  });
  const writeMail = (cache: ApolloCache, settings: VerseMail_SettingsFragment) => {
    cache.updateQuery({ query: SavedVersesPageDocument, variables }, (data) =>
      data ? { ...data, verseMail: settings } : data,
    );
  };
  const [subscribeMutation] = useSubscribeVerseMailMutation();
  const [unsubscribeMutation] = useUnsubscribeVerseMailMutation();
  return {
    query,
    save: async (ref: string) => {
      const { data } = await saveMutation({ variables: { ref, translation } });
      if (!data) throw new Error('saveVerse answered no data');
      return data.saveVerse.verse;
    },
    remove: async (verseId: string) => {
      await unsaveMutation({ variables: { verseId } });
    },
    showOnPage: async (ref: string) => {
      await showMutation({ variables: { ref } });
    },
    subscribe: async (input: VerseMailInput) => {
      await subscribeMutation({
        variables: { input },
        update: (cache, { data }) => {
          if (data) writeMail(cache, data.subscribeVerseMail);
        },
      });
    },
    unsubscribe: async () => {
      await unsubscribeMutation({
        update: (cache, { data }) => {
          if (data) writeMail(cache, data.unsubscribeVerseMail);
        },
      });
    },
  };
}
