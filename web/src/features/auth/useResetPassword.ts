import { useAuth } from '../../session/AuthProvider';
import { useResetPasswordMutation } from './reset-password.generated';

/** Sets a new password with the emailed link's token, and signs in with the session it answers. */
export function useResetPassword(): (token: string, newPassword: string) => Promise<void> {
  const { client } = useAuth();
  const [resetPassword] = useResetPasswordMutation();
  return async (token, newPassword) => {
    const { data } = await resetPassword({
      variables: { input: { token, newPassword } },
      context: { anonymous: true },
    });
    if (!data) throw new Error('resetPassword answered no data');
    // Every other session has ended; this one replaces whatever this browser had.
    await client.signIn(data.resetPassword.session);
  };
}
