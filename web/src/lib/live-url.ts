/** `ws://` or `wss://` to `/graphql` on the page's own origin: subscriptions share the API's address. */
export function liveUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`;
}
