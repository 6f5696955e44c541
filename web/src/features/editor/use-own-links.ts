import type { ApolloCache } from '@apollo/client';
import type { OwnLink_LinkFragment } from './links-editor.generated';
import {
  OwnLinksDocument,
  useAddLinkMutation,
  useOwnLinksQuery,
  useRemoveLinkMutation,
  useReorderLinksMutation,
  useSetPageTimeZoneMutation,
  useUpdateLinkMutation,
} from './links-editor.generated';
import type { UpdateLinkInput } from '../../gql/schema-types';

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
  const [updateLink] = useUpdateLinkMutation({
    update(cache, { data }) {
      // One highlight per page: the server took it from the others.
      const changed = data?.updateLink;
      if (changed?.highlighted) {
        writeLinks(cache, (links) =>
          links.map((link) => (link.id === changed.id ? changed : { ...link, highlighted: false })),
        );
      }
    },
  });
  const [setPageTimeZone] = useSetPageTimeZoneMutation({
    update(cache, { data }) {
      if (!data) return;
      cache.updateQuery({ query: OwnLinksDocument }, (cached) =>
        cached?.me
          ? {
              ...cached,
              me: { ...cached.me, profile: { ...cached.me.profile, timeZone: data.updateProfile.timeZone } },
            }
          : cached,
      );
    },
  });
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
    /** The zone the page's schedules are read in; null until the member chose one. */
    timeZone: query.dataState === 'complete' ? (query.data.me?.profile.timeZone ?? null) : null,
    setTimeZone: (timeZone: string) => setPageTimeZone({ variables: { timeZone } }),
    error: query.error,
    refetch: () => void query.refetch(),
    add: (title: string, url: string) => addLink({ variables: { input: { title, url } } }),
    update: (id: string, input: UpdateLinkInput) => {
      // A switch (hide, highlight) shows at once; text the server normalises waits for its answer.
      const link = links?.find((each) => each.id === id);
      const switchOnly = Object.keys(input).every((key) => key === 'hidden' || key === 'highlighted');
      return updateLink({
        variables: { id, input },
        optimisticResponse:
          link && switchOnly
            ? {
                __typename: 'Mutation',
                updateLink: {
                  ...link,
                  hidden: input.hidden ?? link.hidden,
                  highlighted: input.highlighted ?? link.highlighted,
                },
              }
            : undefined,
      });
    },
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
