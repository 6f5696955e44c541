import type { ApolloCache } from '@apollo/client';
import type { OwnLink_LinkFragment } from './links-editor.generated';
import {
  OwnLinksDocument,
  useAddLinkMutation,
  useOwnLinksQuery,
  useRemoveLinkMutation,
  useReorderLinksMutation,
  useUpdateLinkMutation,
} from './links-editor.generated';

export type OwnLink = OwnLink_LinkFragment;
export type OwnLinks = ReturnType<typeof useOwnLinks>;

/** Puts the member's links, as the API answered them, where the editor and its preview read them. */
function writeLinks(cache: ApolloCache, change: (links: readonly OwnLink[]) => readonly OwnLink[]): void {
  cache.updateQuery({ query: OwnLinksDocument }, (data) =>
    data?.me
      ? { ...data, me: { ...data.me, profile: { ...data.me.profile, links: [...change(data.me.profile.links)] } } }
      : data,
  );
}

/** The member's links and what changes them; every change shows in the list and the preview at once. */
export function useOwnLinks() {
  const query = useOwnLinksQuery({ fetchPolicy: 'cache-and-network' });
  const [addLink] = useAddLinkMutation({
    update(cache, { data }) {
      if (data) writeLinks(cache, (links) => [...links, data.addLink]);
    },
  });
  const [updateLink] = useUpdateLinkMutation();
  const [removeLink] = useRemoveLinkMutation({
    update(cache, { data }) {
      if (data) writeLinks(cache, () => data.removeLink);
    },
  });
  const [reorderLinks] = useReorderLinksMutation({
    update(cache, { data }) {
      if (data) writeLinks(cache, () => data.reorderLinks);
    },
  });
  const links = query.dataState === 'complete' ? (query.data.me?.profile.links ?? null) : null;
  return {
    links,
    error: query.error,
    refetch: () => void query.refetch(),
    add: (title: string, url: string) => addLink({ variables: { input: { title, url } } }),
    update: (id: string, input: { title?: string; url?: string; hidden?: boolean }) =>
      updateLink({ variables: { id, input } }),
    remove: (id: string) => removeLink({ variables: { id } }),
    reorder: (ids: string[]) =>
      reorderLinks({
        variables: { ids },
        optimisticResponse: links
          ? {
              __typename: 'Mutation',
              reorderLinks: ids.flatMap((id) => links.filter((link) => link.id === id)),
            }
          : undefined,
      }),
  };
}
