import { useChoosePasswordMutation } from './choose-password.generated';

/**
 * Sets the password from the session an emailed link signed in. Every other session ends; this one
 * stays, and the member it answers refreshes the cached `me`.
 */
export function useChoosePassword(): (newPassword: string) => Promise<void> {
  const [choosePassword] = useChoosePasswordMutation();
  return async (newPassword) => {
    const { data } = await choosePassword({ variables: { newPassword } });
    if (!data) throw new Error('setNewPassword answered no data');
  };
}
