import { useAuth } from '../../session/AuthProvider';
import {
  TwoFactorStatusDocument,
  useConfirmMfaSetupMutation,
  useDisableMfaMutation,
  useGenerateRecoveryCodesMutation,
  useStartMfaSetupMutation,
  useTwoFactorStatusQuery,
} from './two-factor.generated';

/**
 * Two-factor sign-in for the account page. Confirming a setup answers a new session (raised to
 * aal2), which replaces the current one; the status is read again after every change.
 */
export function useTwoFactor() {
  const { client } = useAuth();
  const status = useTwoFactorStatusQuery({ fetchPolicy: 'cache-and-network' });
  const refetchQueries = [{ query: TwoFactorStatusDocument }];
  const [startMutation] = useStartMfaSetupMutation();
  const [confirmMutation] = useConfirmMfaSetupMutation();
  const [generateMutation] = useGenerateRecoveryCodesMutation();
  const [disableMutation] = useDisableMfaMutation({ refetchQueries, awaitRefetchQueries: true });

  return {
    status,
    startSetup: async () => {
      const { data } = await startMutation();
      if (!data) throw new Error('startMfaSetup answered no data');
      return data.startMfaSetup;
    },
    confirmSetup: async (code: string) => {
      const mark = client.mark();
      const { data } = await confirmMutation({ variables: { code } });
      if (!data) throw new Error('verifyMfa answered no data');
      await client.accept(data.verifyMfa, mark);
      await status.refetch();
    },
    /** Ten new recovery codes (the earlier ones stop working), to show once. */
    generateRecoveryCodes: async () => {
      const { data } = await generateMutation();
      if (!data) throw new Error('generateRecoveryCodes answered no data');
      return data.generateRecoveryCodes;
    },
    disable: async () => {
      await disableMutation();
    },
  };
}
