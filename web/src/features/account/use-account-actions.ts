import { useApolloClient } from '@apollo/client/react';
import { useAuth } from '../../session/AuthProvider';
import { useLeaveSignedOut } from '../../session/SignOutNavigation';
import { useChangePasswordMutation, useDeleteAccountMutation, useUpdateEmailMutation } from './account.generated';

/**
 * The account's changes, with what each means for the session: a new password ends the other
 * sessions and answers this one renewed, at its level; a deleted account leaves nothing to keep, and its screen
 * leaves for the home page.
 */
export function useAccountActions() {
  const { client } = useAuth();
  const apollo = useApolloClient();
  const leave = useLeaveSignedOut();
  const [updateEmailMutation] = useUpdateEmailMutation();
  const [changePasswordMutation] = useChangePasswordMutation();
  const [deleteAccountMutation] = useDeleteAccountMutation();

  return {
    updateEmail: async (email: string, currentPassword = '') => {
      const { data } = await updateEmailMutation({
        variables: { email, currentPassword: currentPassword === '' ? null : currentPassword },
      });
      if (!data) throw new Error('updateEmail answered no data');
      return data.updateEmail;
    },
    changePassword: async (currentPassword: string, newPassword: string) => {
      // Taken before asking: a sign-out while the change is on its way must not be undone by its answer.
      const mark = client.mark();
      // With this session's refresh token the server renews this session, so one that passed
      // two-factor sign-in stays so (no code asked again, "Download my data" still works).
      const refreshToken = client.getSnapshot().session?.refreshToken ?? null;
      const { data } = await changePasswordMutation({
        variables: { input: { currentPassword, newPassword, refreshToken } },
      });
      if (!data) throw new Error('changePassword answered no data');
      await client.accept(data.changePassword, mark);
      await apollo.refetchQueries({ include: ['TwoFactorStatus'] });
    },
    deleteAccount: async (password: string) => {
      await deleteAccountMutation({ variables: { password } });
      // The server has ended every session with the account: forget it here (and in other tabs)
      // once the home page has replaced this member's screen.
      leave(() => client.forget(), 'Your account and your page have been deleted.', { replace: true });
    },
  };
}
