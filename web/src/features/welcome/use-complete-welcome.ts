import { writeMeProfile } from '../../session/member-cache';
import { useCompleteWelcomeMutation } from './welcome.generated';

/** Marks the welcome screen as finished, in the API and in the member every screen reads. */
export function useCompleteWelcome() {
  return useCompleteWelcomeMutation({
    update(cache, { data }) {
      if (data) writeMeProfile(cache, data.completeWelcome);
    },
  });
}
