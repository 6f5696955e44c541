import { writeMeProfile } from '../../auth/member-cache';
import { useChangeUsernameMutation } from '../../gql/hooks';

/** Takes a new username; the member every screen reads (and the header's link) follows. */
export function useChangeUsername() {
  return useChangeUsernameMutation({
    update(cache, { data }) {
      if (data) writeMeProfile(cache, data.changeUsername);
    },
  });
}
