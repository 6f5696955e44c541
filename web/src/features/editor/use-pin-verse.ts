import type { ApolloCache } from '@apollo/client';
import { withMeProfile, writeMeProfile } from '../../session/member-cache';
import type { PinVerseMutation } from './profile-editor.generated';
import { usePinVerseMutation, useUnpinVerseMutation } from './profile-editor.generated';
import { ProfileEditorDocument } from './profile-editor.generated';
import { visitorTimeZone } from '../../lib/time-zone';

type EditedProfile = PinVerseMutation['pinVerse'];

/**
 * Puts the answered profile into the member every screen reads and into the editor's own query,
 * whose verse (asked for the same time zone) is the one the preview shows.
 */
function writeProfile(cache: ApolloCache, profile: EditedProfile, timeZone: string | undefined): void {
  writeMeProfile(cache, profile);
  cache.updateQuery({ query: ProfileEditorDocument, variables: { timeZone } }, (data) => withMeProfile(data, profile));
}

/**
 * Pins a verse to the member's page (Plus) or lets it follow the verse of the day again. The
 * editor's preview and `useAuth()` show the answer at once; each resolves with the verse the page
 * now shows.
 */
export function usePinVerse() {
  const timeZone = visitorTimeZone();
  // The preview's verse in a translation chosen but not saved yet is asked for apart (usePreviewVerse).
  const [pinMutation] = usePinVerseMutation({
    refetchQueries: ['EditorVerse'],
    update(cache, { data }) {
      if (data) writeProfile(cache, data.pinVerse, timeZone);
    },
  });
  const [unpinMutation] = useUnpinVerseMutation({
    refetchQueries: ['EditorVerse'],
    update(cache, { data }) {
      if (data) writeProfile(cache, data.unpinVerse, timeZone);
    },
  });
  return {
    pin: async (ref: string) => {
      const { data } = await pinMutation({ variables: { ref, timeZone } });
      if (!data) throw new Error('pinVerse answered no data');
      return data.pinVerse.verse;
    },
    unpin: async () => {
      const { data } = await unpinMutation({ variables: { timeZone } });
      if (!data) throw new Error('unpinVerse answered no data');
      return data.unpinVerse.verse;
    },
  };
}
