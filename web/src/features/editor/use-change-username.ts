import { writeMeProfile } from '../../session/member-cache';
import { useChangeUsernameMutation } from './profile-editor.generated';

/** Takes a new username; the member every screen reads (and the header's link) follows. */
export function useChangeUsername() {
  return useChangeUsernameMutation({
    update(cache, { data }) {
      if (data) writeMeProfile(cache, data.changeUsername);
    },
  });
}
