import { appConfig } from '../lib/config';

/**
 * "Contact us", as a mail link to the configured support address (SUPPORT_EMAIL), or plain words
 * where none is configured. Always from the account's own address, so that we can tell it is them.
 */
export function SupportContact() {
  const address = appConfig().supportEmail;
  if (!address) return <>contact us from your account&apos;s email address</>;
  return (
    <>
      write to <a href={`mailto:${address}?subject=${encodeURIComponent('Lost my two-factor phone')}`}>{address}</a>{' '}
      from your account&apos;s email address
    </>
  );
}
