import { useAuth } from '../../auth/AuthProvider';
import { useChangePasswordMutation, useDeleteAccountMutation, useUpdateEmailMutation } from '../../gql/hooks';

/**
 * The account's changes, with what each means for the session: a new password ends the other
 * sessions and answers the one to use; a deleted account leaves nothing to keep.
 */
export function useAccountActions() {
  const { client } = useAuth();
  const [updateEmailMutation] = useUpdateEmailMutation();
  const [changePasswordMutation] = useChangePasswordMutation();
  const [deleteAccountMutation] = useDeleteAccountMutation();

  return {
    updateEmail: async (email: string) => {
      const { data } = await updateEmailMutation({ variables: { email } });
      if (!data) throw new Error('updateEmail answered no data');
      return data.updateEmail;
    },
    changePassword: async (currentPassword: string, newPassword: string) => {
      const { data } = await changePasswordMutation({ variables: { input: { currentPassword, newPassword } } });
      if (!data) throw new Error('changePassword answered no data');
      await client.accept(data.changePassword);
    },
    deleteAccount: async (password: string) => {
      await deleteAccountMutation({ variables: { password } });
      // The server has ended every session with the account: forget it here (and in other tabs).
      await client.forget();
    },
  };
}
