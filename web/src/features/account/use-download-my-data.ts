import { useApolloClient } from '@apollo/client/react';
import { DownloadMyDataDocument } from './account.generated';

/** Asks for the member's data afresh (never from the cache) and saves it as a JSON file. */
export function useDownloadMyData() {
  const client = useApolloClient();
  return async (username: string | null): Promise<string> => {
    const { data } = await client.query({ query: DownloadMyDataDocument, fetchPolicy: 'no-cache' });
    if (!data) throw new Error('myData answered no data');
    const name = `lampstand-${username ?? 'account'}-${new Date().toISOString().slice(0, 10)}.json`;
    const url = URL.createObjectURL(new Blob([data.myData], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    // The click has handed the file to the browser; the address is no longer needed.
    setTimeout(() => {
      URL.revokeObjectURL(url);
    }, 0);
    return name;
  };
}
